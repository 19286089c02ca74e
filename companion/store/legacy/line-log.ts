/**
 * @module An append-only file of newline-terminated lines, read back with byte offsets.
 * Appends are synchronous: once `append` returns, the lines are in the operating system's
 * hands, so killing the process cannot lose them (a record is a few KB: microseconds). A
 * failed append is rolled back so the next one starts on a clean line. On open, a torn final
 * line (no newline: the process died mid-write) is cut off.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';

export interface LineRef {
  offset: number;
  length: number;
}

export interface OpenedLog {
  log: LineLog;
  /** Every complete line, in order, without its newline. */
  lines: (LineRef & { text: string })[];
  /** Bytes cut off the end because the last line was torn. */
  tornBytes: number;
}

const BLOCK = 1 << 20;

export class LineLog {
  private size: number;

  private constructor(
    readonly path: string,
    size: number,
  ) {
    this.size = size;
  }

  /** Opens (creating if needed, mode 0600) and reads every complete line. */
  static open(path: string): OpenedLog {
    const fd = fs.openSync(path, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    try {
      const lines: (LineRef & { text: string })[] = [];
      const size = fs.fstatSync(fd).size;
      let pending: Buffer[] = [];
      let pendingStart = 0;
      let pos = 0;
      const buf = Buffer.allocUnsafe(BLOCK);
      while (pos < size) {
        const n = fs.readSync(fd, buf, 0, Math.min(BLOCK, size - pos), pos);
        if (n <= 0) break;
        let start = 0;
        for (let i = 0; i < n; i++) {
          if (buf[i] !== 0x0a) continue;
          const piece = buf.subarray(start, i);
          const whole = pending.length ? Buffer.concat([...pending, piece]) : piece;
          lines.push({ offset: pendingStart, length: whole.length, text: whole.toString('utf8') });
          pending = [];
          pendingStart = pos + i + 1;
          start = i + 1;
        }
        if (start < n) pending.push(Buffer.from(buf.subarray(start, n)));
        pos += n;
      }
      let end = size;
      let tornBytes = 0;
      if (pending.length) {
        tornBytes = size - pendingStart;
        end = pendingStart;
        fs.ftruncateSync(fd, end);
      }
      return { log: new LineLog(path, end), lines, tornBytes };
    } finally {
      fs.closeSync(fd);
    }
  }

  get bytes(): number {
    return this.size;
  }

  /** Appends lines (each ending in a newline) in one write; returns each line's position. Throws on failure. */
  append(lines: string[]): LineRef[] {
    const data = Buffer.from(lines.join(''));
    const start = this.size;
    try {
      fs.appendFileSync(this.path, data, { mode: 0o600 });
    } catch (err) {
      this.rollback(start);
      throw err;
    }
    this.size = start + data.length;
    const refs: LineRef[] = [];
    let offset = start;
    for (const l of lines) {
      const len = Buffer.byteLength(l);
      refs.push({ offset, length: len - 1 });
      offset += len;
    }
    return refs;
  }

  private rollback(size: number): void {
    try {
      const st = fs.statSync(this.path);
      if (st.isFile() && st.size > size) fs.truncateSync(this.path, size);
    } catch {
      // the file may be gone or not a regular file; the next append reports its own error
    }
  }

  /** Reads one line back (without its newline). */
  async read(ref: LineRef): Promise<string> {
    const fh = await fsp.open(this.path, 'r');
    try {
      const buf = Buffer.alloc(ref.length);
      const { bytesRead } = await fh.read(buf, 0, ref.length, ref.offset);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await fh.close();
    }
  }
}

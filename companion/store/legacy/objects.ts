/**
 * @module Content-addressed objects (input items, tool lists) of one store bucket, each kept
 * once however many requests carry it. A corrupt object costs that object only: records that
 * use it show it as unreadable, and the next request that carries it stores it again.
 */
import { hashJson } from '../hash';
import { decodeLine, encodeLine, packJson, unpackJson } from './line-format';
import { LineLog, type LineRef } from './line-log';

/** Values at least this long (as JSON) are stored deflated. */
const COMPRESS_FROM = 512;

export { hashJson };

export type ObjectRead = { ok: true; value: unknown } | { ok: false; reason: string };

export class ObjectStore {
  private readonly index = new Map<string, LineRef>();
  private readonly corrupt = new Set<string>();
  private readonly cache = new Map<string, unknown>();
  /** Lines found corrupt when the file was opened. */
  readonly corruptLines: number;

  private constructor(
    private readonly log: LineLog,
    lines: (LineRef & { text: string })[],
    /** Bytes of a torn final line cut off when the file was opened. */
    readonly tornBytes: number,
  ) {
    let bad = 0;
    for (const line of lines) {
      const d = decodeLine<{ h: string }>(line.text);
      if (d.ok && typeof d.value.h === 'string') {
        this.index.set(d.value.h, { offset: line.offset, length: line.length });
        this.corrupt.delete(d.value.h);
      } else {
        bad++;
        const h = /^\{"h":"([\w-]{24})"/.exec(line.text)?.[1];
        if (h && !this.index.has(h)) this.corrupt.add(h);
      }
    }
    this.corruptLines = bad;
  }

  static open(path: string): ObjectStore {
    const { log, lines, tornBytes } = LineLog.open(path);
    return new ObjectStore(log, lines, tornBytes);
  }

  get bytes(): number {
    return this.log.bytes;
  }

  /** Stores the values not yet present (keyed by their hash) in one append. */
  putMany(values: Map<string, string>): void {
    const missing = [...values].filter(([h]) => !this.index.has(h));
    if (missing.length === 0) return;
    const lines = missing.map(([h, json]) =>
      json.length >= COMPRESS_FROM ? encodeLine({ h, z: packJson(json) }) : encodeLine({ h, v: JSON.parse(json) as unknown }),
    );
    const refs = this.log.append(lines);
    missing.forEach(([h], i) => {
      this.index.set(h, refs[i]);
      this.corrupt.delete(h);
    });
  }

  async get(hash: string): Promise<ObjectRead> {
    if (this.cache.has(hash)) return { ok: true, value: this.cache.get(hash) };
    const ref = this.index.get(hash);
    if (!ref) return { ok: false, reason: this.corrupt.has(hash) ? 'stored copy is corrupt' : 'not in the store' };
    const d = decodeLine<{ h: string; v?: unknown; z?: string }>(await this.log.read(ref));
    if (!d.ok) return { ok: false, reason: `stored copy is corrupt (${d.reason})` };
    let value: unknown;
    try {
      value = d.value.z !== undefined ? unpackJson(d.value.z) : d.value.v;
    } catch {
      return { ok: false, reason: 'stored copy is corrupt (cannot inflate)' };
    }
    if (this.cache.size > 2000) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(hash, value);
    return { ok: true, value };
  }
}

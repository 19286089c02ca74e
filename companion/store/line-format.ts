/**
 * @module One line of a store file: a JSON object whose last key `k` is the CRC-32 of the
 * line without it. A line that fails its check is corrupt; a final line without its newline is
 * torn. Either costs that line only.
 */
import zlib from 'node:zlib';

const TAIL = /,"k":(\d+)\}$/;

/** Serialises `value` (an object) to a checked line, newline included. */
export function encodeLine(value: Record<string, unknown>): string {
  const body = JSON.stringify(value);
  const crc = zlib.crc32(body);
  return `${body.slice(0, -1)},"k":${crc}}\n`;
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Parses and checks one line (without its newline). */
export function decodeLine<T = Record<string, unknown>>(line: string): Decoded<T> {
  const m = TAIL.exec(line);
  if (!m) return { ok: false, reason: 'no checksum' };
  const body = line.slice(0, m.index) + '}';
  if (zlib.crc32(body) !== Number(m[1])) return { ok: false, reason: 'checksum mismatch' };
  try {
    return { ok: true, value: JSON.parse(body) as T };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

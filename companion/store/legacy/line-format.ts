/**
 * @module One line of a store file: a JSON object whose last key `k` is the CRC-32 of the
 * line without it. A line that fails its check is corrupt; a final line without its newline is
 * torn. Either costs that line only. Large values travel inside a line packed: raw-deflated JSON
 * in base64.
 */
import zlib from 'node:zlib';
import { promisify } from 'node:util';

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

/** Packs a JSON text for a line field. */
export function packJson(json: string): string {
  return zlib.deflateRawSync(json).toString('base64');
}

const deflateRawAsync = promisify(zlib.deflateRaw);

/** `packJson` on the thread pool, for texts large enough to stall the event loop. */
export async function packJsonOffThread(json: string): Promise<string> {
  return (await deflateRawAsync(json)).toString('base64');
}

/** Unpacks a `packJson` field. Throws when it does not inflate or is not JSON; callers name the damage. */
export function unpackJson<T = unknown>(packed: string): T {
  return JSON.parse(zlib.inflateRawSync(Buffer.from(packed, 'base64')).toString('utf8')) as T;
}

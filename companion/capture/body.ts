/**
 * @module Bodies as capture keeps them: a request body decoded and parsed (or a note saying why
 * not), a non-streamed response body parsed from its bytes. Text that is not JSON is kept, clipped.
 */
import { decodeBody, parseEncoding } from '../http/decode';
import { describeError } from '../lib/log';

/** A body that is not JSON is kept as text up to this many characters. */
const TEXT_BODY_CHARS = 64 * 1024;

export const clipTextBody = (text: string): string => (text.length > TEXT_BODY_CHARS ? text.slice(0, TEXT_BODY_CHARS) + '…' : text);

export interface DecodedBody {
  body: unknown;
  /** Why the body is missing or kept as text; null when it parsed as JSON. */
  note: string | null;
  /** A capture error to record (corrupt compressed data). */
  error: string | null;
}

/** A request body as Codex sent it (possibly compressed), decoded and parsed for capture. */
export function decodeRequestBody(raw: Uint8Array, encodingHeader: string | null, maxBytes: number): DecodedBody {
  const encoding = parseEncoding(encodingHeader);
  if (!encoding)
    return { body: undefined, note: `not decoded: unsupported content-encoding ${JSON.stringify(encodingHeader)}`, error: null };
  if (raw.byteLength > maxBytes)
    return { body: undefined, note: `not captured: ${raw.byteLength} bytes exceed the capture limit of ${maxBytes}`, error: null };
  let plain: Uint8Array;
  try {
    plain = decodeBody(raw, encoding);
  } catch (err) {
    return {
      body: undefined,
      note: `not decoded: corrupt ${encoding} body (${describeError(err)})`,
      error: `request body: corrupt ${encoding} data`,
    };
  }
  const text = Buffer.from(plain.buffer, plain.byteOffset, plain.byteLength).toString('utf8');
  try {
    return { body: JSON.parse(text) as unknown, note: null, error: null };
  } catch {
    return {
      body: clipTextBody(text),
      note: encoding === 'identity' ? 'not JSON; kept as text' : `decoded from ${encoding}; not JSON; kept as text`,
      error: null,
    };
  }
}

/** A non-streamed response body from its decoded bytes: JSON, else clipped text. */
export function parseResponseBody(parts: Uint8Array[]): unknown {
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return clipTextBody(text);
  }
}

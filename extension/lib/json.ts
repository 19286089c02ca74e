/** Small readers for open-ended JSON (request bodies, output items): narrow `unknown` without casts everywhere. */

export type JsonObject = Record<string, unknown>;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Pretty JSON for display; never throws (cycles and BigInts become a note). */
export function prettyJson(value: unknown, indent = 2): string {
  try {
    return JSON.stringify(value, null, indent) ?? String(value);
  } catch {
    return String(value); // not serialisable: show what String() gives rather than nothing
  }
}

/** JSON arguments as Codex sends them (a string holding JSON): pretty when they parse, else as sent. */
export function prettyArguments(raw: unknown): string {
  if (typeof raw !== 'string') return prettyJson(raw);
  try {
    return prettyJson(JSON.parse(raw));
  } catch {
    return raw; // streamed or truncated arguments are not valid JSON; the raw text is still worth reading
  }
}

/** UTF-8 size of a string, for "N bytes" notes on opaque content. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

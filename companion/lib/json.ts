/** @module Small, total readers over untyped JSON (request bodies are open-ended) and a canonical form for comparing it. */

export type Json = Record<string, unknown>;

export const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A non-empty string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * JSON with object keys sorted, so two values compare equal whatever order their keys were
 * written in. Used for equality of input items and tool definitions, never sent anywhere.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const obj = value as Json;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalJson(obj[k])).join(',') + '}';
}

const texts = new WeakMap<object, string>();

/**
 * `JSON.stringify(value)`, computed once per object: a request's tool list (some 20 KB that
 * Codex resends each turn) is read as text by the store and the analysis alike. The object must
 * not change afterwards, as no parsed request body does.
 */
export function jsonText(value: object): string {
  let text = texts.get(value);
  if (text === undefined) texts.set(value, (text = JSON.stringify(value)));
  return text;
}

/** Top-level keys whose values differ between two objects, sorted. */
export function changedKeys(a: Json, b: Json): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k])).sort();
}

/** `text` cut to `max` characters on one line, with an ellipsis when cut. */
export function clip(text: string, max = 80): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? oneLine.slice(0, max - 1) + '…' : oneLine;
}

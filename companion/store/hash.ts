/** @module The content hash that names a stored-once object (an input item, a tool list). */
import { createHash } from 'node:crypto';

/** 144-bit content hash of a JSON text, base64url (24 chars). */
export function hashJson(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 24);
}

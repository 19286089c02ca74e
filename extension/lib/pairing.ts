/** Reads the pairing link the companion prints (`options.html#port=<port>&token=<token>`). */
import { parsePort } from './companion-url';

export interface Pairing {
  port: number;
  token: string;
}

export type PairingResult = { ok: true; pairing: Pairing } | { ok: false; error: string } | { ok: false; error: null };

/** Tokens are printable and short; anything else in a hash is not one of ours. */
const TOKEN = /^[\x21-\x7e]{8,512}$/;

/**
 * `#port=8642&token=abc…` → the pairing. An empty hash is `{ ok: false, error: null }` (nothing to
 * do); a hash with a bad port or token names what is wrong.
 */
export function parsePairingHash(hash: string): PairingResult {
  const raw = hash.replace(/^#/, '');
  if (raw === '') return { ok: false, error: null };
  const params = new URLSearchParams(raw);
  if (!params.has('port') && !params.has('token')) return { ok: false, error: null };
  const port = parsePort(params.get('port'));
  const token = params.get('token')?.trim() ?? '';
  if (port === null) return { ok: false, error: 'The pairing link has no valid port. Copy the whole link the companion printed.' };
  if (!TOKEN.test(token)) return { ok: false, error: 'The pairing link has no valid token. Run `codex-devtools token` to see it.' };
  return { ok: true, pairing: { port, token } };
}

/** Checks a token typed by hand (Firefox has no fixed extension URL, so its users paste it). */
export function isPlausibleToken(token: string): boolean {
  return TOKEN.test(token.trim());
}

/**
 * Reads what the companion prints to pair the extension: the pairing code `<port>:<token>` (any
 * browser, any extension id) or the development build's link (`options.html#port=<port>&token=<token>`).
 */
import { splitPairingCode } from '../../companion/protocol';
import { parsePort } from './companion-url';
import { tr } from './i18n';

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
  if (port === null) return { ok: false, error: tr('pairing.linkPort') };
  if (!TOKEN.test(token)) return { ok: false, error: tr('pairing.linkToken') };
  return { ok: true, pairing: { port, token } };
}

/**
 * A pasted pairing code (`8642:abc…`), or a whole pairing link whatever extension id it names
 * (a store install has another id than the one the development link carries).
 */
export function parsePairingCode(text: string): PairingResult {
  const t = text.trim();
  if (t === '') return { ok: false, error: tr('pairing.empty') };
  const hash = t.indexOf('#');
  if (hash >= 0) {
    const r = parsePairingHash(t.slice(hash));
    return r.ok || r.error ? r : { ok: false, error: tr('pairing.notLink') };
  }
  const parts = splitPairingCode(t);
  if (!parts) return { ok: false, error: tr('pairing.notCode') };
  const port = parsePort(parts.port);
  if (port === null) return { ok: false, error: tr('pairing.codePort') };
  if (!TOKEN.test(parts.token)) return { ok: false, error: tr('pairing.codeToken') };
  return { ok: true, pairing: { port, token: parts.token } };
}

/** Checks a token typed by hand (Firefox has no fixed extension URL, so its users paste it). */
export function isPlausibleToken(token: string): boolean {
  return TOKEN.test(token.trim());
}

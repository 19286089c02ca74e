/**
 * @module Credentials inside URLs: userinfo (`https://user:pw@gateway/v1`) and key-like query
 * parameters (`?api-key=…`). A configured URL is used as given on the wire, and masked wherever it
 * is shown, logged or stored. String surgery rather than `URL` round-trips, so a masked URL reads
 * exactly like the one configured, and nothing here can throw.
 */

/** The mask put in place of a userinfo or a parameter value. */
export const URL_SECRET_MASK = '***';

/** `key`, `api-key`, `api_key`, `token`, `access_token`, `sig`, `x-goog-api-key`, `client_secret`, … */
const SECRET_PARAM = /key|sig|token|secret|password|auth/i;

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#@]*)@/i;

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** `?a=1&api-key=s3cr3t` → `?a=1&api-key=***`; keeps order, spelling and the leading `?` if any. */
export function redactQuery(query: string): string {
  if (!query) return '';
  const lead = query.startsWith('?') ? '?' : '';
  const body = lead ? query.slice(1) : query;
  if (!body) return lead;
  const parts = body.split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0 || !SECRET_PARAM.test(decodeName(part.slice(0, eq)))) return part;
    return `${part.slice(0, eq)}=${URL_SECRET_MASK}`;
  });
  return lead + parts.join('&');
}

/** A URL safe to show, log or store: userinfo and secret query values masked, the rest untouched. */
export function maskUrl(url: string): string {
  const withoutUser = url.replace(USERINFO, `$1${URL_SECRET_MASK}@`);
  const q = withoutUser.indexOf('?');
  if (q < 0) return withoutUser;
  const hash = withoutUser.indexOf('#', q);
  const query = hash < 0 ? withoutUser.slice(q) : withoutUser.slice(q, hash);
  return withoutUser.slice(0, q) + redactQuery(query) + (hash < 0 ? '' : withoutUser.slice(hash));
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Masks every URL inside free text (error messages, log lines), wherever it came from. */
export function maskUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => {
    // Sentence punctuation after a URL ("…/v1: ECONNREFUSED") is not part of it.
    const tail = /[.,:;!?)\]]+$/.exec(url)?.[0] ?? '';
    return maskUrl(url.slice(0, url.length - tail.length)) + tail;
  });
}

/** The userinfo of a URL, decoded, and the URL without it; null when there is none. */
export function splitUserinfo(url: string): { url: string; user: string; password: string } | null {
  const m = USERINFO.exec(url);
  if (!m || !m[2]) return null;
  const [user, ...rest] = m[2].split(':');
  const decode = (v: string) => {
    try {
      return decodeURIComponent(v);
    } catch {
      return v;
    }
  };
  return { url: m[1] + url.slice(m[0].length), user: decode(user), password: decode(rest.join(':')) };
}

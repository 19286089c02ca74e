/**
 * The companion's error codes in the page's language. The companion sends a stable code with an
 * English message (REST `{ error, message }`, `feed/error`, an exchange's `error`, a cache
 * reason); the UI shows the translation of a code it knows and the companion's English otherwise,
 * so a code added on the companion side still reads sensibly before the extension learns it.
 */
import { te, tr } from './i18n';

/** Codes this extension translates, by where they come from (see companion/protocol). */
export const COMPANION_ERROR_CODES = {
  /** REST error bodies (`ErrorResponseSchema.error`). */
  api: ['bad_request', 'not_found', 'internal_error', 'foreign_host', 'forbidden_origin', 'unauthorized'],
  /** `feed/error` messages. */
  feed: ['unauthorized', 'protocol_mismatch', 'bad_message', 'hello_timeout'],
  /** `ExchangeError.code`, besides `http_<status>`. */
  exchange: [
    'response_failed',
    'response_incomplete',
    'error_event',
    'stream_truncated',
    'capture_incomplete',
    'client_aborted',
    'connection_closed',
    'upstream_unreachable',
    'upstream_closed',
    'upstream_timeout',
  ],
} as const;

export type CompanionErrorSource = keyof typeof COMPANION_ERROR_CODES;

/** The key of the string layer for a code, or null when the extension does not know it. */
export function companionErrorKey(source: CompanionErrorSource, code: string): string | null {
  if (source === 'exchange' && /^http_\d{3}$/.test(code)) return 'companionError.exchange.http';
  return (COMPANION_ERROR_CODES[source] as readonly string[]).includes(code) && te(`companionError.${source}.${code}`)
    ? `companionError.${source}.${code}`
    : null;
}

/** The localized text of a companion error, or its own English message for a code not known here. */
export function companionErrorText(
  source: CompanionErrorSource,
  code: string,
  englishMessage: string,
  t: (key: string, params?: Record<string, string | number>) => string = tr,
): string {
  const key = companionErrorKey(source, code);
  if (!key) return englishMessage;
  return t(key, { status: code.replace(/^http_/, ''), code });
}

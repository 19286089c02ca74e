/** @module One small logger for the companion: prefixed lines on stderr, quiet in tests unless asked. */
import { maskUrlsInText } from './url-secrets';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

/**
 * Writes `[codex-devtools] level: message` lines to stderr at or above `level`. URLs in a message
 * are masked (userinfo, key-like query values): a log is shown and kept, and a configured upstream
 * may carry credentials.
 */
export function createLogger(
  level: LogLevel | 'silent' = 'info',
  sink: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): Logger {
  const at = (l: LogLevel) => (msg: string) => {
    if (level !== 'silent' && order[l] >= order[level]) sink(`[codex-devtools] ${l}: ${maskUrlsInText(msg)}`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Describes any thrown value in one line, without a stack. */
export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${typeof code === 'string' ? code + ' ' : ''}${err.message}${cause}`;
  }
  return String(err);
}

/** What a connection state looks like to the user: a short label, a tone, a sentence that says what to do, and an action. */
import { companionErrorText } from './companion-errors';
import { fmtClock, fmtDuration } from './format';

export interface ConnectionFacts {
  status: 'idle' | 'unpaired' | 'connecting' | 'connected' | 'offline' | 'unauthorized' | 'mismatch';
  base: string;
  companionVersion: string | null;
  offlineSince: number | null;
  close: { code: number; reason: string } | null;
  retryAt: number | null;
  /** The companion's `feed/error`: a code the UI translates, its English message as the fallback. */
  problem: { code?: string; message: string; update: 'extension' | 'companion' | null } | null;
  /** Unpaired pages still ask `/health`: null until answered. */
  reachable: { ok: boolean; version: string | null } | null;
}

export interface ConnectionView {
  label: string;
  tone: 'ok' | 'busy' | 'warn' | 'error';
  detail: string | null;
  action: 'pair' | 'retry' | null;
}

/** Translates a message key of extension/locales (vue-i18n's `t`). */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

function closeText(close: ConnectionFacts['close'], t: Translate): string {
  if (!close) return '';
  return close.reason
    ? t('connection.closeCodeReason', { code: close.code, reason: close.reason })
    : t('connection.closeCode', { code: close.code });
}

export function connectionView(f: ConnectionFacts, now: number, t: Translate): ConnectionView {
  const start = t('connection.start');
  const noCompanion = t('connection.noCompanion', { base: f.base });
  switch (f.status) {
    case 'connected':
      return { label: t('connection.connected'), tone: 'ok', detail: null, action: null };
    case 'idle':
    case 'connecting':
      return { label: t('connection.connecting'), tone: 'busy', detail: null, action: null };
    case 'offline': {
      const since = f.offlineSince ? t('connection.offlineSince', { time: fmtClock(f.offlineSince) }) : t('connection.offlineNoTime');
      const retry = f.retryAt
        ? ` ${f.retryAt > now ? t('connection.retryIn', { duration: fmtDuration(f.retryAt - now) }) : t('connection.retryNowText')}`
        : '';
      return {
        label: t('connection.offline'),
        tone: 'error',
        detail: `${noCompanion} ${start} ${since}${closeText(f.close, t)}.${retry}`,
        action: 'retry',
      };
    }
    case 'unauthorized':
      return { label: t('connection.notAuthorised'), tone: 'error', detail: t('connection.refused', { base: f.base }), action: 'pair' };
    case 'mismatch': {
      const side = f.problem?.update ?? null;
      const how =
        side === 'companion'
          ? t('connection.updateCompanion')
          : side === 'extension'
            ? t('connection.updateExtension')
            : t('connection.updateOlder');
      return {
        label:
          side === 'companion'
            ? t('connection.mismatchUpdateCompanion')
            : side === 'extension'
              ? t('connection.mismatchUpdateExtension')
              : t('connection.mismatch'),
        tone: 'error',
        // The companion's code, translated; its own English text for a code this extension does not know.
        detail: `${f.problem ? companionErrorText('feed', f.problem.code ?? '', f.problem.message, t) : t('connection.protocolDiffers')} ${how}`,
        action: null,
      };
    }
    case 'unpaired':
      if (f.reachable?.ok)
        return {
          label: t('connection.pairedNot'),
          tone: 'warn',
          detail: t('connection.answersNotPaired', { base: f.base }),
          action: 'pair',
        };
      if (f.reachable && !f.reachable.ok)
        return { label: t('connection.offline'), tone: 'error', detail: `${noCompanion} ${start}`, action: 'pair' };
      return { label: t('connection.notPaired'), tone: 'warn', detail: t('connection.pairOnOptions'), action: 'pair' };
  }
}

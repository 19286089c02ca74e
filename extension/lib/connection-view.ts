/** What a connection state looks like to the user: a short label, a tone, a sentence that says what to do, and an action. */
import { fmtClock, fmtDuration } from './format';

export interface ConnectionFacts {
  status: 'idle' | 'unpaired' | 'connecting' | 'connected' | 'offline' | 'unauthorized' | 'mismatch';
  base: string;
  companionVersion: string | null;
  offlineSince: number | null;
  close: { code: number; reason: string } | null;
  retryAt: number | null;
  problem: { message: string; update: 'extension' | 'companion' | null } | null;
  /** Unpaired pages still ask `/health`: null until answered. */
  reachable: { ok: boolean; version: string | null } | null;
}

export interface ConnectionView {
  label: string;
  tone: 'ok' | 'busy' | 'warn' | 'error';
  detail: string | null;
  action: 'pair' | 'retry' | null;
}

const START = 'Start it with `npx codex-devtools` (or check the port on the options page).';

function closeText(close: ConnectionFacts['close']): string {
  if (!close) return '';
  return `, close code ${close.code}${close.reason ? ` (${close.reason})` : ''}`;
}

export function connectionView(f: ConnectionFacts, now: number = Date.now()): ConnectionView {
  switch (f.status) {
    case 'connected':
      return { label: 'connected', tone: 'ok', detail: null, action: null };
    case 'idle':
    case 'connecting':
      return { label: 'connecting…', tone: 'busy', detail: null, action: null };
    case 'offline': {
      const since = f.offlineSince ? `Offline since ${fmtClock(f.offlineSince)}` : 'Offline';
      const retry = f.retryAt ? ` Retrying ${f.retryAt > now ? `in ${fmtDuration(f.retryAt - now)}` : 'now'}.` : '';
      return {
        label: 'offline',
        tone: 'error',
        detail: `No companion at ${f.base}. ${START} ${since}${closeText(f.close)}.${retry}`,
        action: 'retry',
      };
    }
    case 'unauthorized':
      return {
        label: 'not authorised',
        tone: 'error',
        detail: `The companion at ${f.base} refused the pairing token. Pair again: run \`codex-devtools token\` and open the link it prints.`,
        action: 'pair',
      };
    case 'mismatch': {
      const side = f.problem?.update ?? null;
      const how =
        side === 'companion'
          ? 'Update the companion (`npx codex-devtools@latest`), then reload this page.'
          : side === 'extension'
            ? 'Update the extension (load the newer build from .output/ or the store), then reopen this page.'
            : 'Update the older of the two.';
      return {
        label: side ? `protocol mismatch: update the ${side}` : 'protocol mismatch',
        tone: 'error',
        detail: `${f.problem?.message ?? 'The extension and the companion speak different protocol versions.'} ${how}`,
        action: null,
      };
    }
    case 'unpaired':
      if (f.reachable?.ok)
        return {
          label: 'connected, not paired',
          tone: 'warn',
          detail: `A companion answers at ${f.base}, but this extension has no pairing token yet: open the pairing link it printed, or enter the token on the options page.`,
          action: 'pair',
        };
      if (f.reachable && !f.reachable.ok)
        return { label: 'offline', tone: 'error', detail: `No companion at ${f.base}. ${START}`, action: 'pair' };
      return { label: 'not paired', tone: 'warn', detail: 'Pair the extension with the companion on the options page.', action: 'pair' };
  }
}

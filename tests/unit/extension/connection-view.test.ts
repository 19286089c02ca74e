import { describe, expect, it } from 'vitest';
import { connectionView, type ConnectionFacts } from '../../../extension/lib/connection-view';
import { englishT, translator } from '../../support/i18n';

const base: ConnectionFacts = {
  status: 'connected',
  base: 'http://127.0.0.1:8642',
  companionVersion: '0.1.0',
  offlineSince: null,
  close: null,
  retryAt: null,
  problem: null,
  reachable: null,
};

describe('how the connection state reads', () => {
  it('says offline since when, with the close code and reason, and when it retries', () => {
    const since = new Date(2026, 10, 29, 14, 3, 7).getTime();
    const v = connectionView(
      { ...base, status: 'offline', offlineSince: since, close: { code: 1006, reason: 'gone' }, retryAt: since + 4000 },
      since,
      englishT,
    );
    expect(v.label).toBe('offline');
    expect(v.detail).toContain('npx codex-devtools');
    expect(v.detail).toContain('Offline since 14:03:07.000, close code 1006 (gone).');
    expect(v.detail).toContain('Retrying in 4.0 s');
  });

  it('says which side to update on a protocol mismatch', () => {
    const v = connectionView({ ...base, status: 'mismatch', problem: { message: 'protocol 1 vs 2', update: 'companion' } }, 0, englishT);
    expect(v.label).toBe('protocol mismatch: update the companion');
    expect(v.detail).toContain('npx codex-devtools@latest');
  });

  it('tells "running but not paired" from "not running" when there is no token', () => {
    expect(connectionView({ ...base, status: 'unpaired', reachable: { ok: true, version: '0.1.0' } }, 0, englishT).action).toBe('pair');
    expect(connectionView({ ...base, status: 'unpaired', reachable: { ok: false, version: null } }, 0, englishT).label).toBe('offline');
  });

  it('reads in the chosen language, figures and commands unchanged', () => {
    const since = new Date(2026, 10, 29, 14, 3, 7).getTime();
    const v = connectionView({ ...base, status: 'offline', offlineSince: since, retryAt: since + 4000 }, since, translator('ja'));
    expect(v.label).toBe('オフライン');
    expect(v.detail).toBe(
      'http://127.0.0.1:8642 に companion がありません。 `npx codex-devtools` で起動してください（またはオプションページでポートを確認してください）。 14:03:07.000 からオフライン. 4.0 s 後に再試行します。',
    );
  });
});

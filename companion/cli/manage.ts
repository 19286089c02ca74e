/** @module `codex-devtools prune|clear|pause|resume`: what is kept, through the running companion or on disk. */
import { createLogger, describeError } from '../lib/log';
import { updateSettings } from '../lib/settings';
import { Store } from '../store/store';
import { DEFAULT_MAX_STORE_BYTES } from '../defaults';
import { callApi } from './client';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { COMMON, companionPort, home, parse, size } from './options';

export const MANAGE_HELP = `Usage:
  codex-devtools pause    stop recording (Codex keeps working; requests are still forwarded)
  codex-devtools resume   record again
  codex-devtools clear    delete everything captured
  codex-devtools prune [--max-size <size>]   delete the oldest sessions past the size cap
Options: --port <n> (the running companion), --home <dir> (when none is running)`;

export async function manageCommand(command: 'prune' | 'clear' | 'pause' | 'resume', args: string[]): Promise<number> {
  const { values } = parse(command, args, { ...COMMON, 'max-size': { type: 'string' } });
  if (values.help) {
    console.log(MANAGE_HELP);
    return 0;
  }
  const h = home(values.home);
  const p = companionPort(values, h);
  if ((await probe(p)).kind === 'companion') {
    const call = {
      prune: ['POST', '/prune'],
      clear: ['DELETE', '/exchanges'],
      pause: ['POST', '/capture/pause'],
      resume: ['POST', '/capture/resume'],
    }[command];
    const r = await callApi(p, h, call[0], call[1]);
    if (r.status === 401)
      throw new UsageError(`The companion on port ${p} did not accept the token in ${h}; pass the --home it runs with.`, 1);
    if (r.status >= 400) throw new UsageError(`${command} failed: ${JSON.stringify(r.json)}`, 1);
    console.log(describe(command, r.json as Record<string, unknown>));
    return 0;
  }
  if (command === 'pause' || command === 'resume') {
    try {
      updateSettings(h, { capturePaused: command === 'pause' });
    } catch (err) {
      throw new UsageError(`${command} failed: the setting could not be saved in ${h} (${describeError(err)}).`, 1);
    }
    console.log(`Capture will be ${command === 'pause' ? 'paused' : 'on'} when the companion starts (none is running on port ${p}).`);
    return 0;
  }
  const store = Store.open({ home: h, log: createLogger('warn'), maxBytes: size(values['max-size'], DEFAULT_MAX_STORE_BYTES) });
  const deleted = command === 'clear' ? await store.clear() : store.pruneIfNeeded();
  console.log(describe(command, { deleted, bytes: store.bytes() }));
  return 0;
}

function describe(command: string, r: Record<string, unknown>): string {
  switch (command) {
    case 'clear':
      return `Deleted ${r.deleted} exchanges.`;
    case 'prune':
      return `Pruned ${r.deleted} exchanges; the store now holds ${r.bytes} bytes.`;
    default:
      return (
        (r.paused ? 'Capture paused: requests are still forwarded, nothing is recorded.' : 'Capture resumed.') +
        (typeof r.saveError === 'string' ? ` Warning: ${r.saveError}.` : '')
      );
  }
}

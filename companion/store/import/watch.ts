/**
 * @module `--watch-codex-home`: follows the rollout files Codex is writing and imports what is
 * new. Polls file sizes and times (fs.watch misses events on some file systems and needs a
 * handle per folder of a tree that grows by the day); a changed file is imported again whole,
 * which adds only its new responses because imports skip what is known.
 */
import fs from 'node:fs';
import type { Logger } from '../../lib/log';
import { describeError } from '../../lib/log';
import { rolloutFiles } from './files';
import type { ImportRunner } from './runner';

export interface CodexHomeWatcher {
  /** Resolves when the files seen so far are imported (tests and shutdown wait for it). */
  settled(): Promise<void>;
  close(): void;
}

export function watchCodexHomes(homes: string[], runner: ImportRunner, log: Logger, intervalMs = 1000): CodexHomeWatcher {
  const seen = new Map<string, string>();
  let busy: Promise<void> = Promise.resolve();
  let closed = false;
  const scan = async () => {
    const changed: string[] = [];
    for (const file of homes.flatMap(rolloutFiles)) {
      let stamp: string;
      try {
        const st = fs.statSync(file);
        stamp = `${st.size}:${st.mtimeMs}`;
      } catch {
        continue; // moved (archived) between listing and reading: found again at its new place
      }
      if (seen.get(file) === stamp) continue;
      seen.set(file, stamp);
      changed.push(file);
    }
    if (!changed.length) return;
    try {
      const r = await runner.run({ files: changed });
      if (r.added) log.info(`import: ${r.added} new exchanges from ${changed.length} rollout file(s)`);
      for (const e of r.errors) log.warn(`import: ${e}`);
    } catch (err) {
      log.error(`import of Codex rollouts failed: ${describeError(err)}`);
    }
  };
  const tick = () => {
    if (closed) return;
    busy = busy.then(scan);
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    settled: () => busy,
    close: () => {
      closed = true;
      clearInterval(timer);
    },
  };
}

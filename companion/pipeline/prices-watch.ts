/**
 * @module Follows `<home>/prices.json` while the companion runs. The state directory is watched,
 * not the file: editors save by writing a new file and renaming it over the old one, and the file
 * may not exist yet when the companion starts. Bursts of events (one save is several) are
 * coalesced into one call.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeError, type Logger } from '../lib/log';
import { paths } from '../store/layout';

/** Events closer together than this are one save. */
const COALESCE_MS = 100;

/** Calls `changed` after each save, creation or removal of the price override file; returns the stop. */
export function watchPrices(home: string, log: Logger, changed: () => void): () => void {
  const name = path.basename(paths(home).prices);
  let timer: NodeJS.Timeout | null = null;
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(home, { persistent: false }, (_event, file) => {
      // Some platforms do not name the file: any change in the directory is then a candidate.
      if (file !== null && file !== name) return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        changed();
      }, COALESCE_MS);
      timer.unref();
    });
  } catch (err) {
    log.warn(`prices: cannot watch ${home} (${describeError(err)}); edits of prices.json apply at the next start`);
    return () => undefined;
  }
  watcher.on('error', (err) => log.warn(`prices: watching ${home} stopped (${describeError(err)}); edits apply at the next start`));
  return () => {
    if (timer) clearTimeout(timer);
    watcher.close();
  };
}

// Preloaded with `node --import` into a companion under test, so in every thread. Test-only.
// - Appends a line to $PROBE_DIR/intl.log for each Intl.DateTimeFormat made (a process's first one
//   loads ICU's locale data, about 8 MB).
// - Writes whether zod is loaded in this thread to $PROBE_DIR/zod-<main|worker> every 50 ms (zod
//   sets globalThis.__zod_globalConfig when it loads).
// - In the main thread, registers footprint-hooks.mjs: every module resolved from then on is
//   appended to $PROBE_DIR/modules.log.
import fs from 'node:fs';
import { register } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.PROBE_DIR;
const thread = isMainThread ? 'main' : 'worker';
if (isMainThread) register('./footprint-hooks.mjs', import.meta.url, { data: { log: path.join(dir, 'modules.log') } });

const Original = Intl.DateTimeFormat;
function Probe(...args) {
  const where = new Error().stack?.split('\n').slice(2, 4).join(' <- ').trim();
  fs.appendFileSync(path.join(dir, 'intl.log'), `${thread}: ${where}\n`);
  return new Original(...args);
}
Probe.prototype = Original.prototype;
Probe.supportedLocalesOf = Original.supportedLocalesOf.bind(Original);
Intl.DateTimeFormat = Probe;

setInterval(() => fs.writeFileSync(path.join(dir, `zod-${thread}`), String('__zod_globalConfig' in globalThis)), 50).unref();

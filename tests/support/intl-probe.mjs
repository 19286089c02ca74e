// Preloaded with `node --import` into a companion under test, so in every thread: appends a line
// to $INTL_PROBE_FILE for each Intl.DateTimeFormat made (a process's first one loads ICU's locale
// data, about 8 MB). Test-only.
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const Original = Intl.DateTimeFormat;
function Probe(...args) {
  const where = new Error().stack?.split('\n').slice(2, 4).join(' <- ').trim();
  fs.appendFileSync(process.env.INTL_PROBE_FILE, `${isMainThread ? 'main' : 'worker'}: ${where}\n`);
  return new Original(...args);
}
Probe.prototype = Original.prototype;
Probe.supportedLocalesOf = Original.supportedLocalesOf.bind(Original);
Intl.DateTimeFormat = Probe;

// Module hooks registered by footprint-probe.mjs: appends each module the process resolves to
// $PROBE_DIR/modules.log. Test-only.
import fs from 'node:fs';

let log = '';
export function initialize(data) {
  log = data.log;
}
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  fs.appendFileSync(log, `${r.url}\n`);
  return r;
}

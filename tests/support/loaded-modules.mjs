// Preloaded with `node --import` into a companion under test: at exit, writes the loaded
// CommonJS modules (the OpenTelemetry packages are CommonJS) whose path contains
// $LOADED_MODULES_MATCH to $LOADED_MODULES_FILE. Test-only.
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
process.on('exit', () => {
  const match = process.env.LOADED_MODULES_MATCH ?? '';
  const loaded = Object.keys(require.cache).filter((p) => p.includes(match));
  fs.writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(loaded));
});

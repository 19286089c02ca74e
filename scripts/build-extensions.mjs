// Builds and zips the Chrome (MV3) and Firefox (MV3) extensions, then copies the unpacked
// folders into dist/extension so the published package carries them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const wxt = path.resolve('node_modules/.bin/wxt');
const run = (args) => execFileSync(wxt, args, { stdio: 'inherit' });

run(['zip']);
run(['zip', '-b', 'firefox', '--mv3']);

for (const target of ['chrome-mv3', 'firefox-mv3']) {
  const from = path.resolve('.output', target);
  const to = path.resolve('dist/extension', target);
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}
console.log('extensions: .output/chrome-mv3, .output/firefox-mv3 (zips in .output/), copied to dist/extension/');

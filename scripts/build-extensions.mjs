// Builds the extensions: the unpacked Chrome (MV3) development build with its fixed id in
// .output/chrome-mv3, the Chrome Web Store zip (no `key`: the store assigns the id) from
// .output/chrome-mv3-store, and the Firefox (MV3) build with its AMO zips. The unpacked folders are
// copied into dist/extension so the published package carries them.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const wxt = path.resolve('node_modules/.bin/wxt');
const run = (args) => execFileSync(wxt, args, { stdio: 'inherit' });

run(['build']);
run(['zip', '--mode', 'store']);
run(['zip', '-b', 'firefox', '--mv3']);

for (const target of ['chrome-mv3', 'firefox-mv3']) {
  const from = path.resolve('.output', target);
  const to = path.resolve('dist/extension', target);
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}
console.log(
  'extensions: .output/chrome-mv3 (development, fixed id), .output/chrome-mv3-store (store zip), .output/firefox-mv3 (zips in .output/), copied to dist/extension/',
);

// Renders extension/assets/icon.svg to the PNG sizes the stores and browsers ask for (16, 32, 48, 128) in
// extension/public, where WXT picks them up as the manifest icons. Run by hand after changing the SVG
// (`node scripts/make-icons.mjs`); the PNGs are committed. Uses the test Chromium, so nothing new to install.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { findBrowser } from './lib/browsers.mjs';

const svg = fs.readFileSync(path.resolve('extension/assets/icon.svg'), 'utf8');
const executablePath = findBrowser('chromium');
if (!executablePath) throw new Error('Chromium not found: run `npm run setup:browsers`.');
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const size of [16, 32, 48, 128]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const img = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<style>html,body{margin:0;background:transparent}</style><img src="${img}" width="${size}" height="${size}">`);
    const file = path.resolve('extension/public', `icon-${size}.png`);
    await page.screenshot({ path: file, omitBackground: true });
    await page.close();
    console.log(`icons: ${path.relative(process.cwd(), file)}`);
  }
} finally {
  await browser.close();
}

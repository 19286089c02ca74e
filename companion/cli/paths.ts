/** @module Where the built extension is, relative to this CLI (published package or a checkout). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Chrome/Firefox extension folders that exist next to this CLI. */
export function extensionDirs(): { chrome: string | null; firefox: string | null } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const roots = [
    path.resolve(here, '../extension'),
    path.resolve(here, '../../dist/extension'),
    path.resolve(here, '../../.output'),
    path.resolve(here, '../.output'),
  ];
  const find = (name: string) => roots.map((r) => path.join(r, name)).find((d) => fs.existsSync(path.join(d, 'manifest.json'))) ?? null;
  return { chrome: find('chrome-mv3'), firefox: find('firefox-mv3') };
}

/** The id of the unpacked development build, fixed by its manifest key (wxt.config.ts); a store install has another. */
export const CHROME_EXTENSION_ID = 'dceflbcgefibjiafpacongiijjkjedae';

/** One-click pairing for the unpacked development build only; the pairing code works with any id. */
export function pairingLink(port: number, token: string): string {
  return `chrome-extension://${CHROME_EXTENSION_ID}/options.html#port=${port}&token=${encodeURIComponent(token)}`;
}

/** The demo's history (scripts/make-demo.ts): beside the bundled CLI, or in the sources. */
export function demoTrafficFile(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'demo-traffic.jsonl'), path.resolve(here, '../demo/demo-traffic.jsonl')];
  return candidates.find((f) => fs.existsSync(f)) ?? null;
}

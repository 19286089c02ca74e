/**
 * What goes to the stores, read from the built packages (npm test builds them first): the Chrome Web
 * Store zip without the development `key`, the unpacked development build with it, the Firefox
 * manifest with what AMO requires of new listings, and the icons at every size the stores ask for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROME_EXTENSION_DIR, FIREFOX_EXTENSION_DIR } from '../support/browser';
import { readZip } from '../support/zip';

const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;
const CHROME_ZIP = path.resolve(`.output/codex-devtools-${version}-chrome.zip`);
const FIREFOX_ZIP = path.resolve(`.output/codex-devtools-${version}-firefox.zip`);
const SIZES = ['16', '32', '48', '128'];

type Manifest = Record<string, unknown> & { icons?: Record<string, string> };
const manifestIn = (zip: string) => JSON.parse(readZip(zip).get('manifest.json')!.toString('utf8')) as Manifest;
const manifestAt = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): [number, number] {
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('the store packages', () => {
  it('the Chrome store zip has no manifest key; the unpacked development build keeps its fixed one', () => {
    expect(manifestIn(CHROME_ZIP)).not.toHaveProperty('key');
    expect(manifestAt(CHROME_EXTENSION_DIR).key).toEqual(expect.stringMatching(/^MIIB/));
  });

  it('the Firefox manifest declares no data collection and the versions that key needs', () => {
    const m = manifestIn(FIREFOX_ZIP);
    expect(m.browser_specific_settings).toEqual({
      gecko: { id: 'codex-devtools@codex-devtools', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } },
      gecko_android: { strict_min_version: '142.0' },
    });
  });

  it('both zips carry icons at 16, 32, 48 and 128 pixels, each the size it is declared as', () => {
    for (const zip of [CHROME_ZIP, FIREFOX_ZIP]) {
      const files = readZip(zip);
      const { icons } = manifestIn(zip);
      expect(Object.keys(icons ?? {}).sort()).toEqual([...SIZES].sort());
      for (const size of SIZES) {
        const png = files.get(icons![size]);
        expect(png, `${zip}: ${icons![size]}`).toBeDefined();
        expect(pngSize(png!)).toEqual([Number(size), Number(size)]);
      }
    }
  });

  it('the unpacked Firefox build the tests load is the one that was zipped', () => {
    expect(manifestAt(FIREFOX_EXTENSION_DIR)).toEqual(manifestIn(FIREFOX_ZIP));
  });
});

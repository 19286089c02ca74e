import { describe, expect, it } from 'vitest';
import { decodeLine, encodeLine, packJson, packJsonOffThread, unpackJson } from '../../../companion/store/legacy/line-format';

describe('checked store lines', () => {
  it('round-trips an object and ends the line with a newline', () => {
    const line = encodeLine({ t: 'x', id: 'a', s: { n: 1, text: 'héllo "q"' } });
    expect(line.endsWith('}\n')).toBe(true);
    expect(decodeLine(line.slice(0, -1))).toEqual({ ok: true, value: { t: 'x', id: 'a', s: { n: 1, text: 'héllo "q"' } } });
  });

  it('rejects a line with one byte changed, even when it is still valid JSON', () => {
    const line = encodeLine({ t: 'x', id: 'a', n: 1234 }).slice(0, -1);
    const flipped = line.replace('1234', '1235');
    expect(JSON.parse(flipped)).toBeTruthy();
    expect(decodeLine(flipped)).toEqual({ ok: false, reason: 'checksum mismatch' });
  });

  it('rejects a torn line', () => {
    const line = encodeLine({ t: 'x', id: 'a' }).slice(0, -10);
    expect(decodeLine(line).ok).toBe(false);
  });

  it('packs JSON the same on and off the event loop, and refuses a damaged pack', async () => {
    const json = JSON.stringify({ text: 'héllo '.repeat(100), n: [1, 2, 3] });
    const packed = packJson(json);
    expect(packed.length).toBeLessThan(json.length);
    expect(await packJsonOffThread(json)).toBe(packed);
    expect(unpackJson(packed)).toEqual(JSON.parse(json));
    expect(() => unpackJson('not a pack')).toThrow();
  });
});

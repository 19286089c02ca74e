import { describe, expect, it } from 'vitest';
import { formatPairingCode } from '../../../companion/protocol/pairing';
import { parsePairingCode, parsePairingHash } from '../../../extension/lib/pairing';

describe('reading the pairing link', () => {
  it('reads the port and the token from the hash the companion prints', () => {
    expect(parsePairingHash('#port=8642&token=abcDEF012345-_xyz')).toEqual({
      ok: true,
      pairing: { port: 8642, token: 'abcDEF012345-_xyz' },
    });
  });

  it('decodes a percent-encoded token', () => {
    expect(parsePairingHash(`#port=9000&token=${encodeURIComponent('a+b/c=d12345678')}`)).toMatchObject({
      pairing: { token: 'a+b/c=d12345678' },
    });
  });

  it('does nothing for an empty hash or one that is not a pairing', () => {
    expect(parsePairingHash('')).toEqual({ ok: false, error: null });
    expect(parsePairingHash('#doc/pairing')).toEqual({ ok: false, error: null });
  });

  it('names what is wrong with a bad port or token', () => {
    expect(parsePairingHash('#port=99999&token=abcdefgh1234')).toMatchObject({ ok: false, error: expect.stringContaining('port') });
    expect(parsePairingHash('#port=8642&token=x')).toMatchObject({ ok: false, error: expect.stringContaining('token') });
  });
});

describe('reading a pasted pairing code', () => {
  it('reads `<port>:<token>`, the code the companion prints, ignoring the spaces around it', () => {
    expect(parsePairingCode(`  ${formatPairingCode(8642, 'abcDEF012345-_xyz')}\n`)).toEqual({
      ok: true,
      pairing: { port: 8642, token: 'abcDEF012345-_xyz' },
    });
  });

  it('takes a whole pairing link whatever extension id or scheme it names', () => {
    for (const origin of [
      'chrome-extension://dceflbcgefibjiafpacongiijjkjedae',
      'chrome-extension://someotherstoreidxxxxxxxxxxxxxxxx',
      'moz-extension://6b1c7c8e',
    ]) {
      expect(parsePairingCode(`${origin}/options.html#port=9001&token=abcdefgh1234`)).toEqual({
        ok: true,
        pairing: { port: 9001, token: 'abcdefgh1234' },
      });
    }
  });

  it('names what is wrong with an empty, bare-token, bad-port or short-token paste', () => {
    expect(parsePairingCode(' ')).toMatchObject({ ok: false, error: expect.stringContaining('Paste the pairing code') });
    expect(parsePairingCode('abcdefghijklmnop0123')).toMatchObject({ ok: false, error: expect.stringContaining('not a pairing code') });
    expect(parsePairingCode('70000:abcdefghijklmnop')).toMatchObject({ ok: false, error: expect.stringContaining('port') });
    expect(parsePairingCode('8642:abc')).toMatchObject({ ok: false, error: expect.stringContaining('token') });
    expect(parsePairingCode('https://example.com/#doc')).toMatchObject({ ok: false, error: expect.stringContaining('not a pairing link') });
  });
});

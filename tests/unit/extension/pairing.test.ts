import { describe, expect, it } from 'vitest';
import { parsePairingHash } from '../../../extension/lib/pairing';

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

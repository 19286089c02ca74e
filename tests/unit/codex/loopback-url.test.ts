import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl, singleHost } from '../../../companion/lib/loopback';

describe('loopback names', () => {
  it('takes a Host header with or without a port', () => {
    for (const host of ['127.0.0.1:8642', '127.9.9.9', 'localhost', 'LocalHost:1', '[::1]:8642', ' localhost '])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', 'localhost.evil.com', '127.0.0.1.evil.com', '0.0.0.0', '[::2]', '', null, undefined])
      expect(isLoopbackHost(host), String(host)).toBe(false);
  });

  it('takes only real loopback literals: valid octets, no other spellings, a real port', () => {
    for (const host of ['127.255.255.254', '127.0.0.1:65535', '127.0.0.1:1', 'LOCALHOST', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '127.999.999.999',
      '127.0.0.256',
      '127.0.0.01',
      '127.1',
      '0x7f000001',
      '0x7f.0.0.1',
      '2130706433',
      '0177.0.0.1',
      'localhost.',
      '127.0.0.1.evil.com',
      '[::ffff:127.0.0.1]',
      '[0:0:0:0:0:0:0:1]',
      '::1',
      'user@127.0.0.1',
      'user:pw@localhost:8642',
      '127.0.0.1:',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '127.0.0.1:08642',
      '127.0.0.1:8642:1',
      '127.0.0.1 evil.com',
      'localhost, evil.com',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('finds the one Host of a raw header list and refuses none or several', () => {
    expect(singleHost(['Host', '127.0.0.1:1', 'Accept', '*/*'])).toBe('127.0.0.1:1');
    expect(singleHost(['host', '127.0.0.1:1', 'HOST', 'evil.com'])).toBeNull();
    expect(singleHost(['accept', '*/*'])).toBeNull();
  });

  it("reads a URL's host the way URL normalises it: case, short and hex IPv4, long IPv6", () => {
    for (const url of [
      'http://127.0.0.1:8642/v1',
      'https://localhost/v1',
      'http://LOCALHOST:4000',
      'http://127.1/v1',
      'http://0x7f.0.0.1:8642/v1',
      'http://[0:0:0:0:0:0:0:1]:8642/v1',
      'http://user:pw@127.0.0.1/',
    ])
      expect(isLoopbackUrl(url), url).toBe(true);
    for (const url of [
      'https://gateway.example.com/v1',
      'http://localhost.evil.com/v1',
      'http://127.0.0.1.evil.com/',
      'http://[::ffff:127.0.0.1]/',
      '127.0.0.1:8642',
      'not a url',
    ])
      expect(isLoopbackUrl(url), url).toBe(false);
  });
});

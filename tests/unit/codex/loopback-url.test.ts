import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isLoopbackUrl } from '../../../companion/lib/loopback';

describe('loopback names', () => {
  it('takes a Host header with or without a port', () => {
    for (const host of ['127.0.0.1:8642', '127.9.9.9', 'localhost', 'LocalHost:1', '[::1]:8642', ' localhost '])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', 'localhost.evil.com', '127.0.0.1.evil.com', '0.0.0.0', '[::2]', '', null, undefined])
      expect(isLoopbackHost(host), String(host)).toBe(false);
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

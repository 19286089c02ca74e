import { describe, expect, it } from 'vitest';
import { maskUrl, maskUrlsInText, redactQuery, splitUserinfo } from '../../../companion/lib/url-secrets';
import { joinUpstream, upstreamTarget } from '../../../companion/proxy/route';

describe('credentials in configured URLs', () => {
  it('masks userinfo and every key-like query value, and keeps the rest as configured', () => {
    expect(maskUrl('http://user:PW@gw.example:8080/v1')).toBe('http://***@gw.example:8080/v1');
    expect(maskUrl('https://token@gw.example/v1')).toBe('https://***@gw.example/v1');
    for (const name of ['key', 'api-key', 'api_key', 'token', 'access_token', 'sig', 'API-KEY', 'x-goog-api-key'])
      expect(maskUrl(`https://gw.example/v1?v=2024&${name}=s3cr3t#f`), name).toBe(`https://gw.example/v1?v=2024&${name}=***#f`);
    expect(maskUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1');
    expect(maskUrl('https://gw.example/v1?api-version=2024-10-01')).toBe('https://gw.example/v1?api-version=2024-10-01');
  });

  it('masks a parameter name written percent-encoded, and leaves flags without a value alone', () => {
    expect(redactQuery('?api%2Dkey=s3cr3t&debug')).toBe('?api%2Dkey=***&debug');
    expect(redactQuery('')).toBe('');
    expect(redactQuery('?')).toBe('?');
  });

  it('masks every URL inside free text, such as an error message', () => {
    const text = 'fetch failed for http://u:PW@127.0.0.1:1/v1/responses?api-key=s3cr3t: ECONNREFUSED';
    const masked = maskUrlsInText(text);
    expect(masked).not.toContain('PW');
    expect(masked).not.toContain('s3cr3t');
    expect(masked).toBe('fetch failed for http://***@127.0.0.1:1/v1/responses?api-key=***: ECONNREFUSED');
  });

  it('never throws on what is not a URL', () => {
    for (const s of ['', 'not a url', '%%%', 'http://', 'http://@', '?=&=']) expect(() => maskUrl(s)).not.toThrow();
  });

  it('splits userinfo off a URL, decoded', () => {
    expect(splitUserinfo('http://us%40er:p%3Aw:x@gw/v1')).toEqual({ url: 'http://gw/v1', user: 'us@er', password: 'p:w:x' });
    expect(splitUserinfo('http://gw/v1')).toBeNull();
  });
});

describe('joining an upstream base with the request path', () => {
  it('keeps a query of the base URL after the path, and joins Codex’s own query to it', () => {
    expect(joinUpstream('https://gw/v1?api-key=k', '/responses', '')).toBe('https://gw/v1/responses?api-key=k');
    expect(joinUpstream('https://gw/v1/?api-key=k', '/responses', '?x=1')).toBe('https://gw/v1/responses?api-key=k&x=1');
    expect(joinUpstream('https://gw/v1/', '/models', '?x=1')).toBe('https://gw/v1/models?x=1');
    expect(joinUpstream('https://gw/v1#frag', 'responses', '')).toBe('https://gw/v1/responses');
  });

  it('sends userinfo as Basic auth only to a request without an Authorization of its own, and never in the URL', () => {
    const req = { headers: [] as [string, string][], suffix: '/responses', query: '' };
    const bare = upstreamTarget('http://us:pw@gw/v1', req, []);
    expect(bare.url).toBe('http://gw/v1/responses');
    expect(bare.headers).toEqual([['authorization', `Basic ${Buffer.from('us:pw').toString('base64')}`]]);
    const withOwn = upstreamTarget('http://us:pw@gw/v1', req, [['authorization', 'Bearer x']]);
    expect(withOwn).toEqual({ url: 'http://gw/v1/responses', headers: [['authorization', 'Bearer x']] });
  });
});

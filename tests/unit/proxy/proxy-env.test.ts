import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../../companion/proxy/proxy-env';

describe('choosing the outbound proxy from the environment', () => {
  it('uses HTTPS_PROXY for https and wss targets, HTTP_PROXY for http and ws ones', () => {
    const env = { HTTPS_PROXY: 'http://secure-proxy:8080', HTTP_PROXY: 'http://plain-proxy:3128' };
    expect(proxyFor('https://api.openai.com/v1/responses', env)).toBe('http://secure-proxy:8080');
    expect(proxyFor('wss://chatgpt.com/backend-api/codex/responses', env)).toBe('http://secure-proxy:8080');
    expect(proxyFor('http://gateway.internal/v1', env)).toBe('http://plain-proxy:3128');
    expect(proxyFor('ws://gateway.internal/v1', env)).toBe('http://plain-proxy:3128');
  });

  it('falls back to HTTP_PROXY for secure targets and reads lower-case names', () => {
    expect(proxyFor('https://api.openai.com/v1', { http_proxy: 'http://p:1' })).toBe('http://p:1');
    expect(proxyFor('https://api.openai.com/v1', { https_proxy: 'http://q:2' })).toBe('http://q:2');
    expect(proxyFor('https://api.openai.com/v1', {})).toBeNull();
  });

  it('goes direct for hosts in NO_PROXY: exact names, dotted and starred suffixes, ports, and *', () => {
    const env = { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'localhost, .corp.example,*.internal, 10.0.0.5:8443' };
    expect(proxyFor('https://localhost/v1', env)).toBeNull();
    expect(proxyFor('https://llm.corp.example/v1', env)).toBeNull();
    expect(proxyFor('https://corp.example/v1', env)).toBeNull();
    expect(proxyFor('https://a.internal/v1', env)).toBeNull();
    expect(proxyFor('https://10.0.0.5:8443/v1', env)).toBeNull();
    expect(proxyFor('https://10.0.0.5/v1', env)).toBe('http://p:1');
    expect(proxyFor('https://api.openai.com/v1', env)).toBe('http://p:1');
    expect(proxyFor('https://api.openai.com/v1', { ...env, no_proxy: '*' })).toBeNull();
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { proxyFor, readProxyEnv } from '../../../companion/proxy/proxy-env';
import { createDispatcher, DEFAULT_UPSTREAM_TIMEOUTS } from '../../../companion/proxy/upstream-client';
import { startConnectProxy } from '../../support/connect-proxy';

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

  it('takes the lower-case spelling when both are set differently, for HTTP requests and WebSockets alike', async () => {
    expect(
      readProxyEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', NO_PROXY: 'a.example', no_proxy: 'b.example' }),
    ).toEqual({ httpProxy: '', httpsProxy: 'http://lower:2', noProxy: 'b.example' });

    const upper = await startConnectProxy();
    const lower = await startConnectProxy();
    const target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const origin = `127.0.0.1:${(target.address() as AddressInfo).port}`;
    const env = { HTTP_PROXY: upper.url, http_proxy: lower.url };
    const dispatcher = await createDispatcher({ ...DEFAULT_UPSTREAM_TIMEOUTS, env });
    try {
      const res = await request(`http://${origin}/v1/responses`, { dispatcher });
      expect(await res.body.text()).toBe('ok');
      expect(lower.tunnels).toEqual([origin]);
      expect(upper.tunnels).toEqual([]);
      expect(proxyFor(`ws://${origin}/v1/responses`, env)).toBe(lower.url);
    } finally {
      await dispatcher.close();
      await new Promise<void>((r) => target.close(() => r()));
      await upper.close();
      await lower.close();
    }
  });
});

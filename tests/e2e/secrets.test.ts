import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream';
import { scenarios } from '../support/scenarios';
import { runCodex } from '../support/codex';
import { startTestCompanion, type TestCompanion } from '../support/companion';
import { rawRequest } from '../support/http';
import { openFeed } from '../support/live-client';
import { stateDirText } from '../support/state-dir';
import { fakeKey } from '../support/keys';

const API_KEY = fakeKey('proj-SECRETSECRET-abcdefghijklmnopqrstuvwxyz0123');
const JWT = 'eyJhbGciOiJub25lIn0.eyJzZWNyZXQiOiJqd3Qtc2VjcmV0LXZhbHVlIn0.c2lnbmF0dXJlLXNlY3JldA';
const ACCOUNT = 'acct_secret_account_987654321';
const COOKIE = 'session=cookie-secret-value-135792468';
const PROFILE_KEY = fakeKey('profile-KEEPINPROFILEFILEONLY-0123456789');
const SECRETS = [API_KEY, JWT, ACCOUNT, COOKIE.split('=')[1], PROFILE_KEY];
/** Long enough to be unambiguous, short enough to catch a masked form that kept too much. */
const fragments = (s: string) => [s, s.slice(0, 16), s.slice(-12)];

describe('secrets Codex sends never reach disk or any API response', () => {
  let upstream: FakeUpstream;
  let c: TestCompanion;
  const bodies: string[] = [];

  beforeAll(async () => {
    upstream = await startFakeUpstream({ scenario: scenarios.toolCall() });
    c = await startTestCompanion({
      apiUpstream: upstream.baseUrl,
      chatgptUpstream: `${upstream.origin}/backend-api/codex`,
      logLevel: 'debug',
    });
    const feed = await openFeed(c.url, { token: c.token() });
    feed.ws.on('message', (d) => bodies.push(d.toString()));
    // Real Codex with an API key…
    const run = await runCodex({ prompt: 'run echo hi', baseUrl: `${c.url}/v1`, apiKey: API_KEY });
    run.cleanup();
    expect(run.exitCode).toBe(0);
    // …and ChatGPT-style credentials with a cookie.
    await rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${JWT}`, 'chatgpt-account-id': ACCOUNT, cookie: COOKIE },
      body: '{"model":"gpt-5-codex","input":[]}',
    });
    // A profile key the user stored deliberately.
    const auth = { authorization: `Bearer ${c.token()}` };
    await rawRequest(`${c.url}/api/profiles`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ id: 'p1', name: 'P1', baseUrl: upstream.baseUrl, apiKey: PROFILE_KEY }),
    });
    await rawRequest(`${c.url}/api/profiles/active`, { method: 'POST', headers: auth, body: JSON.stringify({ id: 'p1' }) });
    await rawRequest(`${c.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}` },
      body: '{"model":"gpt-5-codex","input":[]}',
    });
    await c.idle();
    for (const p of ['/exchanges?limit=1000', '/sessions', '/usage', '/status', '/ratelimits', '/profiles']) {
      bodies.push((await rawRequest(`${c.url}/api${p}`, { headers: auth })).body.toString());
    }
    for (const s of (await c.store.list({ limit: 1000 })).items) {
      bodies.push((await rawRequest(`${c.url}/api/exchanges/${s.id}`, { headers: auth })).body.toString());
      // "Copy as cURL" leaves credential headers out whole: not even their masked tails.
      const curl = (await rawRequest(`${c.url}/api/exchanges/${s.id}/curl`, { headers: auth })).body.toString();
      expect(curl).not.toMatch(/authorization|cookie|chatgpt-account-id|redacted/i);
      bodies.push(curl);
    }
    feed.close();
  });
  afterAll(async () => {
    await c.dispose();
    await upstream.close();
  });

  it('sent the real credentials upstream, so the search below is meaningful', async () => {
    const seen = upstream.requests.map((r) => JSON.stringify(r.headers)).join('\n');
    for (const s of SECRETS) expect(seen).toContain(s);
    expect((await c.store.list({ limit: 1000 })).items.length).toBeGreaterThanOrEqual(4);
  });

  it('finds none of them anywhere in the state directory (decoded), except the profile key in profiles.json', () => {
    for (const [file, text] of stateDirText(c.home)) {
      for (const s of SECRETS) {
        if (s === PROFILE_KEY && file.endsWith('profiles.json')) {
          expect(text).toContain(PROFILE_KEY);
          expect(fs.statSync(file).mode & 0o777).toBe(0o600);
          continue;
        }
        for (const f of fragments(s)) expect(text.includes(f), `${f} in ${file}`).toBe(false);
      }
    }
  });

  it('finds none of them in any API response or live-feed message; keys appear only masked', () => {
    const all = bodies.join('\n');
    for (const s of SECRETS) for (const f of fragments(s)) expect(all.includes(f), f).toBe(false);
    expect(all).toContain('[redacted …');
  });
});

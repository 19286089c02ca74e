/**
 * A certificate authority made for one test run, and a server certificate it signs for
 * localhost and 127.0.0.1 (openssl CLI). Codex trusts it through SSL_CERT_FILE, the companion
 * through NODE_EXTRA_CA_CERTS. Test-only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCa {
  dir: string;
  /** PEM files. */
  caCert: string;
  serverKey: string;
  serverCert: string;
  /** The CA plus the system roots, for tools that replace (not add to) their trust store. */
  bundle: string;
  cleanup(): void;
}

export function makeTestCa(): TestCa {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-ca-'));
  const p = (f: string) => path.join(dir, f);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=codex-devtools test CA',
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', p('server.key'), '-out', p('server.csr'));
  fs.writeFileSync(p('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n');
  ssl(
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    p('ext.cnf'),
    '-out',
    p('server.pem'),
  );
  const system = ['/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/cert.pem'].find((f) => fs.existsSync(f));
  fs.writeFileSync(p('bundle.pem'), fs.readFileSync(p('ca.pem'), 'utf8') + (system ? fs.readFileSync(system, 'utf8') : ''));
  return {
    dir,
    caCert: p('ca.pem'),
    serverKey: p('server.key'),
    serverCert: p('server.pem'),
    bundle: p('bundle.pem'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** An unsigned JWT with these claims (Codex parses, never verifies, the tokens in auth.json). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.${Buffer.from('not-a-signature').toString('base64url')}`;
}

/** A hand-made ChatGPT login for `auth.json`, with fake tokens. */
export function fakeChatgptAuth(accountId: string): { authJson: unknown; accessToken: string } {
  const exp = Math.floor(Date.now() / 1000) + 30 * 86400;
  const auth = { chatgpt_account_id: accountId, chatgpt_plan_type: 'plus', chatgpt_user_id: 'user-fake' };
  const idToken = fakeJwt({ email: 'tester@example.com', exp, 'https://api.openai.com/auth': auth });
  const accessToken = fakeJwt({ exp, 'https://api.openai.com/auth': auth, scp: ['openid'] });
  return {
    accessToken,
    authJson: {
      auth_mode: 'chatgpt',
      OPENAI_API_KEY: null,
      tokens: { id_token: idToken, access_token: accessToken, refresh_token: 'rt_fake_refresh_token_0123456789', account_id: accountId },
      last_refresh: new Date().toISOString(),
    },
  };
}

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../../companion/protocol';
import { curlCommand, shellQuote } from '../../../../companion/store/export/curl';
import { loadFixture, recordFrom } from '../../../support/records';
import { fakeKey } from '../../../support/keys';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'curl-quote-'));
const MARK = path.join(dir, 'pwned');
/** Everything a shell could act on, in the words a model or a file could put in a prompt. */
const HOSTILE = [
  `'; touch ${MARK}; echo '`,
  `$(touch ${MARK})`,
  '`touch ' + MARK + '`',
  `"; touch ${MARK}; "`,
  "\\' \\ back\\slash",
  'line one\nline two\r\n\ttabbed',
  'escape \u001b[31mred\u001b[0m and bell \u0007 and nul-free',
  'separator \u2028 and C1 \u0085',
  '${HOME} !! !$ #',
].join(' | ');

/** Runs the command in bash with `curl` replaced by a function that prints its arguments, NUL-separated. */
function argsOf(command: string): string[] {
  const out = execFileSync('bash', ['-c', `curl() { printf '%s\\0' "$@"; }\n${command}`], { encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

let record: ExchangeRecord;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  const fx = loadFixture('codemode-text-1.json');
  fx.request!.body.input.at(-1).content[0].text = HOSTILE;
  fx.request!.headers = {
    ...fx.request!.headers,
    authorization: `Bearer ${fakeKey('test-secret-0123456789abcdef')}`,
    cookie: 'session=abc123',
    'chatgpt-account-id': 'acct-0123456789',
    'x-api-key': fakeKey('other-0123456789'),
    'x-custom': `it's "quoted"`,
  };
  const captured = await recordFrom(fx, { id: 'curl-1' });
  // As a zstd request is recorded: decoded body, the original length and encoding in the headers.
  record = {
    ...captured,
    request: { ...captured.request, headers: { ...captured.request.headers, 'content-length': '12345', 'content-encoding': 'zstd' } },
  };
});

describe('Copy as cURL', () => {
  it('quotes a hostile body so bash passes it to curl byte for byte and runs none of it', () => {
    const args = argsOf(curlCommand(record));
    const body = args[args.indexOf('--data-raw') + 1];
    expect(JSON.parse(body)).toEqual(record.request.body);
    expect(body).toContain(JSON.stringify(HOSTILE).slice(1, -1));
    expect(fs.existsSync(MARK)).toBe(false);
  });

  it('sends the body with --data-raw, so a body starting with @ is not read as a file name', () => {
    const args = argsOf(`curl --data-raw ${shellQuote('@/etc/passwd')}`);
    expect(args).toEqual(['--data-raw', '@/etc/passwd']);
    expect(curlCommand(record)).toContain('--data-raw ');
    expect(curlCommand(record)).not.toMatch(/ (-d|--data|--data-binary) /);
  });

  it('leaves out every credential header, and the ones curl computes or could not honour', () => {
    const command = curlCommand(record);
    const headers = argsOf(command).flatMap((a, i, all) => (all[i - 1] === '-H' ? [a.split(':')[0].toLowerCase()] : []));
    for (const h of ['authorization', 'cookie', 'chatgpt-account-id', 'x-api-key', 'content-length', 'content-encoding', 'host'])
      expect(headers).not.toContain(h);
    expect(command).not.toMatch(/redacted|sk-test|abc123|acct-/);
    expect(argsOf(command)).toContain(`x-custom: it's "quoted"`);
  });

  it('targets the URL the request was forwarded to', () => {
    expect(argsOf(curlCommand(record))[0]).toBe(record.request.upstreamUrl);
  });

  it('escapes control characters instead of pasting them into the terminal', () => {
    const q = shellQuote('a\u001b[2Jb\rc');
    expect(q).toBe("$'a\\x1b[2Jb\\rc'");
    // eslint-disable-next-line no-control-regex -- the quoted word must hold no raw control character
    expect(curlCommand(record)).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    expect(argsOf(`curl ${q}`)).toEqual(['a\u001b[2Jb\rc']);
  });
});

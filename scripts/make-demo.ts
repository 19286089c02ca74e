/**
 * Writes companion/demo/demo-traffic.jsonl, the history `codex-devtools demo` starts with
 * (see scripts/demo/traffic.ts), refusing when it would hold a credential.
 *
 *   npm run make:demo                       # rewrite the file
 *   npm run make:demo -- --check            # exit 1 when the committed file differs
 */
import fs from 'node:fs';
import path from 'node:path';
import { credentialFindings } from './demo/credentials';
import { DEMO_FILE, makeDemo, ROOT } from './demo/traffic';

async function main(): Promise<number> {
  const text = await makeDemo();
  const found = credentialFindings(text);
  if (found.length) {
    console.error(`make-demo: refusing to write credentials: ${found.join('; ')}`);
    return 1;
  }
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(DEMO_FILE) && fs.readFileSync(DEMO_FILE, 'utf8') === text;
    console.log(
      same ? `${path.relative(ROOT, DEMO_FILE)} is up to date` : `${path.relative(ROOT, DEMO_FILE)} differs: run npm run make:demo`,
    );
    return same ? 0 : 1;
  }
  fs.mkdirSync(path.dirname(DEMO_FILE), { recursive: true });
  fs.writeFileSync(DEMO_FILE, text);
  console.log(`wrote ${path.relative(ROOT, DEMO_FILE)}: ${text.split('\n').filter(Boolean).length} exchanges, ${text.length} bytes`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

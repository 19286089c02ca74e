// The one test command (README, CI): format, lint, type check, builds, then every vitest layer
// (unit, integration, end-to-end with the real Codex CLI and real browsers). Ends with the line
// `N passed, N failed`, counting each static check as one test. First it makes sure the browsers and
// tools the tests run are here (the same step as `npm run setup:browsers`), and stops at once if not.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureTestTools, manualHint } from './lib/browsers.mjs';

// Never prompts: a test run must not wait for a password nobody is there to type.
const tools = ensureTestTools({ interactive: false });
if (!tools.ok) {
  console.log(
    `✗ ${tools.missing.join(', ')} not found and not installed (${tools.reason}): run \`npm run setup:browsers\` (or ${manualHint()})`,
  );
  process.exit(1);
}

const bin = (name) => path.resolve('node_modules/.bin', name);
const steps = [
  ['format (prettier)', bin('prettier'), ['--check', '.']],
  ['lint (eslint)', bin('eslint'), ['.']],
  ['type check (vue-tsc)', bin('vue-tsc'), ['--noEmit']],
  ['build (companion, Chrome and Firefox extensions)', 'npm', ['run', '--silent', 'build']],
  // What AMO runs on a submission; reviewed third-party warnings are listed in scripts/web-ext-lint-reviewed.json.
  ['Firefox store check (web-ext lint)', 'node', ['scripts/lint-extension.mjs']],
];

let passed = 0;
let failed = 0;
for (const [name, cmd, args] of steps) {
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  const ok = r.status === 0;
  console.log(`${ok ? '✓' : '✗'} ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (ok) passed++;
  else failed++;
}

const report = path.resolve('test-results/vitest.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
fs.rmSync(report, { force: true });
const extra = process.argv.slice(2);
spawnSync(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extra], { stdio: 'inherit' });
if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  // A suite that failed outside its tests (e.g. in beforeAll) has no failed test to count.
  const brokenSuites = r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed')).length;
  failed += brokenSuites;
} else {
  failed++;
  console.log('✗ vitest produced no report');
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

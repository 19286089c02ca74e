// `npm run setup:browsers`: the test command's first step on its own. Finds Chromium, Firefox and
// the tools the tests run (git, openssl, zstd); installs the missing Debian packages as root or with
// sudo (asking for the password when run from a terminal); otherwise says what to install by hand.
import { ensureTestTools, manualHint } from './lib/browsers.mjs';

const r = ensureTestTools({ interactive: Boolean(process.stdin.isTTY) });
for (const [name, where] of Object.entries(r.found)) console.log(`setup: ${name}: ${where}`);
if (!r.ok) {
  console.log(`setup: ${r.missing.join(', ')} missing and not installed (${r.reason}): ${manualHint()}`);
  process.exit(1);
}
console.log('setup: everything the tests need is here');

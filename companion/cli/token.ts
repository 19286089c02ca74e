/** @module `codex-devtools token [--rotate]`: the pairing token, the pairing code and the development build's pairing link. */
import { loadOrCreateToken, rotateToken } from '../lib/token';
import { formatPairingCode } from '../protocol/pairing';
import { COMMON, companionPort, home, parse } from './options';
import { pairingLink } from './paths';

export const TOKEN_HELP = `Usage: codex-devtools token [--home <dir>] [--port <n>] [--rotate]

Prints the pairing token, the pairing code to paste in the extension's options (any browser,
store-installed or unpacked), and a link that pairs the unpacked development build in Chrome in one
click, for the companion using the state directory (its port, unless --port says otherwise).
--rotate makes a new token (paired extensions must pair again).`;

export async function tokenCommand(args: string[]): Promise<number> {
  const { values } = parse('token', args, { ...COMMON, rotate: { type: 'boolean' } });
  if (values.help) {
    console.log(TOKEN_HELP);
    return 0;
  }
  const h = home(values.home);
  const token = values.rotate ? rotateToken(h) : loadOrCreateToken(h);
  const p = companionPort(values, h);
  console.log(`${values.rotate ? 'New token' : 'Token'}: ${token}`);
  console.log(`Pairing code: ${formatPairingCode(p, token)}`);
  console.log(
    `  paste it in the extension's options: Chrome: right-click the toolbar icon → Options; Firefox: about:addons → Codex DevTools → Preferences`,
  );
  console.log(`Unpacked development build in Chrome: or open ${pairingLink(p, token)}`);
  return 0;
}

/** @module `codex-devtools token [--rotate]`: the pairing token and a pairing link for the extension. */
import { loadOrCreateToken, rotateToken } from '../lib/token';
import { COMMON, companionPort, home, parse } from './options';
import { pairingLink } from './paths';

export const TOKEN_HELP = `Usage: codex-devtools token [--home <dir>] [--port <n>] [--rotate]

Prints the pairing token the extension needs, and a link that pairs Chrome in one click, for the
companion using the state directory (its port, unless --port says otherwise).
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
  console.log(`Pair Chrome: ${pairingLink(p, token)}`);
  console.log(`Firefox: open the extension's options (about:addons → Codex DevTools → Preferences) and paste the token; port ${p}.`);
  return 0;
}

/** @module `codex-devtools setup [--remove]`: route plain `codex` through the companion via config.toml. */
import path from 'node:path';
import { codexHome } from '../codex/config-file';
import { remove, setup, SetupError } from '../codex/setup';
import { UsageError } from './errors';
import { COMMON, parse, port } from './options';

export const SETUP_HELP = `Usage: codex-devtools setup [--port <n>] [--home <dir>] [--codex-home <dir>] [--remove]

Writes a clearly marked block at the top of $CODEX_HOME/config.toml (default ~/.codex) setting
openai_base_url to the companion, so plain \`codex\` goes through it (API key or ChatGPT login).
A previous openai_base_url is kept inside the block and restored by --remove; a backup of the
file is kept next to it. While the companion is stopped, Codex set up this way cannot reach its
model: undo with \`codex-devtools setup --remove\`.`;

export async function setupCommand(args: string[]): Promise<number> {
  const { values } = parse('setup', args, { ...COMMON, 'codex-home': { type: 'string' }, remove: { type: 'boolean' } });
  if (values.help) {
    console.log(SETUP_HELP);
    return 0;
  }
  const home = typeof values['codex-home'] === 'string' ? path.resolve(values['codex-home']) : codexHome();
  try {
    const r = values.remove ? remove(home) : setup(home, port(values.port));
    console.log(r.message + (r.backup ? `\nBackup: ${r.backup}` : ''));
    return 0;
  } catch (err) {
    if (err instanceof SetupError || (err instanceof Error && /not valid TOML/.test(err.message))) throw new UsageError(err.message, 1);
    throw err;
  }
}

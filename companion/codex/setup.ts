/**
 * @module `codex-devtools setup` / `setup --remove`: a clearly marked block at the top of
 * Codex's config.toml (top-level keys must precede the first table) that points the built-in
 * provider at the companion. A key the user already had is taken into the block and put back,
 * byte for byte, on removal; nothing else in the file is touched, so Codex's own later edits
 * survive.
 */
import fs from 'node:fs';
import { isLoopbackUrl } from '../lib/loopback';
import { companionUrl, configPath, effectiveRoute, parseToml, pointsAtCompanion, readConfig } from './config-file';

export const BEGIN = '# >>> codex-devtools: added by `codex-devtools setup`; undo with `codex-devtools setup --remove` >>>';
export const END = '# <<< codex-devtools <<<';
const SAVED = '# codex-devtools saved: ';
const CREATED = '# codex-devtools created this file';
const MOVED = '# codex-devtools: this line moved into the block above; `codex-devtools setup --remove` restores it';

export class SetupError extends Error {
  override name = 'SetupError';
}

export interface SetupResult {
  file: string;
  backup: string | null;
  changed: boolean;
  message: string;
}

/** Line starts of top-level lines before the first table header, skipping multi-line strings. */
function topLevelLines(lines: string[]): number[] {
  const out: number[] = [];
  let inString: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inString) {
      if (line.includes(inString)) inString = null;
      continue;
    }
    if (/^\s*\[/.test(line)) break;
    out.push(i);
    const m = /("""|''')/.exec(line);
    if (m && line.split(m[1]).length === 2) inString = m[1];
  }
  return out;
}

const KEY_LINE = /^\s*("openai_base_url"|'openai_base_url'|openai_base_url)\s*=/;

export function setup(codexHomeDir: string, port: number): SetupResult {
  const file = configPath(codexHomeDir);
  const existed = fs.existsSync(file);
  const text = existed ? fs.readFileSync(file, 'utf8') : '';
  const config = parseToml(text, file);
  if (text.includes(BEGIN)) {
    const current = effectiveRoute(config).baseUrl;
    if (current === companionUrl(port))
      return { file, backup: null, changed: false, message: `${file} already sends Codex through codex-devtools on port ${port}.` };
    throw new SetupError(`${file} already has a codex-devtools block (for ${current}); run \`codex-devtools setup --remove\` first.`);
  }
  const route = effectiveRoute(config);
  if (!route.builtin || route.provider !== 'openai') {
    throw new SetupError(
      `Codex uses the custom provider "${route.provider}" in ${file}. setup only changes the built-in provider; set that provider's base_url to ${companionUrl(port)} and start the companion with --upstream ${route.baseUrl ?? '<its old base_url>'}, or use \`codex-devtools run -- codex …\`, which handles it per run.`,
    );
  }
  if (route.baseUrl && isLoopbackUrl(route.baseUrl)) {
    throw new SetupError(
      `${file} already points Codex at a local proxy (openai_base_url = "${route.baseUrl}"). Remove that first; codex-devtools will not chain behind or replace another proxy silently.`,
    );
  }

  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const block = [BEGIN];
  if (!existed) block.push(CREATED);
  for (const i of topLevelLines(lines)) {
    if (!KEY_LINE.test(lines[i])) continue;
    block.push(SAVED + JSON.stringify(lines[i]));
    lines[i] = MOVED;
  }
  if (route.baseUrl) block.push(`# codex-devtools forwards to your previous openai_base_url: ${route.baseUrl}`);
  block.push(`openai_base_url = "${companionUrl(port)}"`, END);
  const bom = lines[0]?.startsWith('\ufeff') ? '\ufeff' : '';
  if (bom) lines[0] = lines[0].slice(1);
  const next = bom + block.join(eol) + eol + lines.join(eol);
  const after = parseToml(next, file);
  if (effectiveRoute(after).baseUrl !== companionUrl(port))
    throw new SetupError(`could not place openai_base_url at the top level of ${file}; it was left unchanged`);

  let backup: string | null = null;
  if (existed) {
    backup = `${file}.codex-devtools.bak`;
    fs.copyFileSync(file, backup);
    fs.chmodSync(backup, 0o600);
  } else {
    fs.mkdirSync(codexHomeDir, { recursive: true });
  }
  fs.writeFileSync(file, next);
  return {
    file,
    backup,
    changed: true,
    message: `Codex now goes through codex-devtools on 127.0.0.1:${port} (${file}). Keep the companion running while you use Codex; undo with \`codex-devtools setup --remove\`.`,
  };
}

/** The previous openai_base_url recorded by setup, if there was one (the companion's upstream). */
function previousBaseUrl(text: string): string | null {
  const m = /^# codex-devtools forwards to your previous openai_base_url: (\S+)$/m.exec(text);
  return m ? m[1] : null;
}

/**
 * The API upstream `setup` promised for the companion on `port`: the openai_base_url the user had
 * before (a gateway, say), while config.toml in `codexHomeDir` still sends Codex to that companion.
 * Null without a setup block, without a previous base URL, or for a companion on another port.
 */
export function setupUpstream(codexHomeDir: string, port: number): string | null {
  const { text, config } = readConfig(codexHomeDir);
  if (!text?.includes(BEGIN)) return null;
  const route = effectiveRoute(config);
  if (route.provider !== 'openai' || !route.baseUrl || !pointsAtCompanion(route.baseUrl, port)) return null;
  return previousBaseUrl(text);
}

export function remove(codexHomeDir: string): SetupResult {
  const file = configPath(codexHomeDir);
  if (!fs.existsSync(file)) return { file, backup: null, changed: false, message: `${file} does not exist; nothing to remove.` };
  const text = fs.readFileSync(file, 'utf8');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const bom = text.startsWith('\ufeff') ? '\ufeff' : '';
  const lines = text.slice(bom.length).split(/\r?\n/);
  const start = lines.indexOf(BEGIN);
  if (start < 0) return { file, backup: null, changed: false, message: `${file} has no codex-devtools block; nothing to remove.` };
  const end = lines.indexOf(END, start);
  if (end < 0)
    throw new SetupError(
      `${file} has the start of a codex-devtools block but not its end; fix it by hand (a backup is in ${file}.codex-devtools.bak).`,
    );
  const block = lines.slice(start, end + 1);
  const saved = block.filter((l) => l.startsWith(SAVED)).map((l) => JSON.parse(l.slice(SAVED.length)) as string);
  const created = block.includes(CREATED);
  const rest = [...lines.slice(0, start), ...lines.slice(end + 1)];
  for (const original of saved) {
    const at = rest.indexOf(MOVED);
    if (at >= 0) rest[at] = original;
  }
  const next = bom + rest.join(eol);
  if (created && next === '') {
    fs.unlinkSync(file);
    return { file, backup: null, changed: true, message: `Removed ${file}, which setup had created.` };
  }
  parseToml(next, file);
  fs.writeFileSync(file, next);
  return { file, backup: null, changed: true, message: `Codex no longer goes through codex-devtools (${file} restored).` };
}

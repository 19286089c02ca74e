/** @module `codex-devtools doctor`: checks Codex, its config, the companion and traffic, and says what to fix. */
import { spawnSync } from 'node:child_process';
import { codexHome, companionUrl, configPath, effectiveRoute, pointsAtCompanion, readConfig } from '../codex/config-file';
import { isLoopbackUrl } from '../lib/loopback';
import { maskUrl } from '../lib/url-secrets';
import { BEGIN } from '../codex/setup';
import { callApi } from './client';
import { probe } from '../lib/probe';
import { COMMON, companionPort, home, parse } from './options';

export const DOCTOR_HELP = `Usage: codex-devtools doctor [--port <n>] [--home <dir>] [--codex-home <dir>] [--codex <path>]

Checks the Codex version, the config in effect, whether the companion answers, and whether
traffic arrived, and prints what to fix. Exits 1 when something needs fixing.`;

const TESTED = '0.169.0';

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parse('doctor', args, { ...COMMON, 'codex-home': { type: 'string' }, codex: { type: 'string' } });
  if (values.help) {
    console.log(DOCTOR_HELP);
    return 0;
  }
  const h = home(values.home);
  const p = companionPort(values, h);
  const ok: string[] = [];
  const fix: string[] = [];

  const codexBin = typeof values.codex === 'string' ? values.codex : 'codex';
  const v = spawnSync(codexBin, ['--version'], { encoding: 'utf8' });
  const version = v.status === 0 ? /(\d+\.\d+\.\d+\S*)/.exec(v.stdout)?.[1] : undefined;
  if (!version) fix.push(`Codex: \`${codexBin} --version\` did not run. Install it (npm i -g @openai/codex) or pass --codex <path>.`);
  else if (version !== TESTED) ok.push(`Codex ${version} (codex-devtools is tested with ${TESTED}; capture may miss new fields)`);
  else ok.push(`Codex ${version}`);

  const cHome = typeof values['codex-home'] === 'string' ? values['codex-home'] : codexHome();
  let pointsHere = false;
  try {
    const { text, config } = readConfig(cHome);
    const route = effectiveRoute(config);
    const ours = companionUrl(p);
    const base = route.baseUrl;
    const onOurPort = base !== null && pointsAtCompanion(base, p);
    // Codex appends /responses to the base URL, and the companion proxies only under /v1.
    pointsHere = onOurPort && /^\/v1(\/|$)/.test(new URL(base).pathname);
    if (pointsHere)
      ok.push(
        `${configPath(cHome)}: provider ${route.provider} sends model requests to ${maskUrl(base!)}${text?.includes(BEGIN) ? ' (codex-devtools setup)' : ''}`,
      );
    else if (onOurPort)
      fix.push(
        `${configPath(cHome)} sends Codex to ${maskUrl(base!)}: this companion's port, but outside its proxy under /v1, so Codex's requests find nothing there. Set it to ${ours}.`,
      );
    else if (route.baseUrl && isLoopbackUrl(route.baseUrl))
      fix.push(
        `${configPath(cHome)} sends Codex to ${maskUrl(route.baseUrl)}, not to this companion's port ${p}. Use --port to match, or run \`codex-devtools setup --port ${p}\`.`,
      );
    else
      ok.push(
        `${configPath(cHome)}: provider ${route.provider} goes ${route.baseUrl ? `to ${maskUrl(route.baseUrl)}` : 'straight to OpenAI'}; route single runs with \`codex-devtools run -- codex …\` or \`codex -c 'openai_base_url="${ours}"'\`, or all runs with \`codex-devtools setup\``,
      );
  } catch (err) {
    fix.push(`${configPath(cHome)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (process.env.OPENAI_BASE_URL)
    fix.push(`OPENAI_BASE_URL is set, but Codex 0.169 ignores it; use openai_base_url in config.toml or -c instead.`);

  const found = await probe(p);
  if (found.kind === 'companion') {
    ok.push(`companion ${found.version} answers on 127.0.0.1:${p}`);
    const status = await callApi(p, h, 'GET', '/status').catch(() => null);
    if (!status || status.status !== 200) {
      fix.push(`the companion on port ${p} did not accept the token in ${h}; pass the --home it runs with.`);
    } else {
      const s = status.json as {
        store: { exchanges: number; writeErrors: number };
        capture: { paused: boolean; errors: number; lastError: string | null };
      };
      const last = await callApi(p, h, 'GET', '/exchanges?limit=1');
      const newest = (last.json as { items?: { startedAt: number }[] }).items?.[0];
      if (newest) ok.push(`traffic arrived: ${s.store.exchanges} exchanges, the last at ${new Date(newest.startedAt).toLocaleString()}`);
      else fix.push(`no traffic has arrived yet: run Codex through the companion (see above).`);
      if (s.capture.paused) fix.push('capture is paused: `codex-devtools resume`.');
      if (s.capture.errors > 0)
        fix.push(
          `capture reported ${s.capture.errors} errors (last: ${s.capture.lastError}); forwarding was not affected. Check disk space and the companion log.`,
        );
    }
  } else if (found.kind === 'other') {
    fix.push(`something else answers on 127.0.0.1:${p}; start the companion on a free port with --port.`);
  } else if (pointsHere) {
    fix.push(
      `Codex is set up to go through 127.0.0.1:${p}, but nothing answers there, so Codex cannot reach its model. Start the companion (\`npx codex-devtools\`) or undo with \`codex-devtools setup --remove\`.`,
    );
  } else {
    fix.push(`no companion runs on 127.0.0.1:${p}: start it with \`npx codex-devtools\`.`);
  }

  for (const line of ok) console.log(`✓ ${line}`);
  for (const line of fix) console.log(`✗ ${line}`);
  return fix.length ? 1 : 0;
}

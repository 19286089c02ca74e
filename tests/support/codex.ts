/**
 * Runs the real Codex CLI (`@openai/codex`, pinned in package.json) the way a user would:
 * `codex exec --skip-git-repo-check` in a fresh git work tree, with a fresh CODEX_HOME whose
 * config.toml points Codex at the address under test. Test-only.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fakeKey } from './keys';

export const CODEX_BIN = path.resolve('node_modules/.bin/codex');

export interface CodexRunOptions {
  prompt: string;
  /**
   * `custom`: a `[model_providers.companion]` with `wire_api = "responses"` and an `env_key`
   * (Codex then uses plain HTTP + SSE). `builtin`: the built-in provider with `openai_base_url`
   * and an API key in auth.json (Codex then tries its WebSocket transport first).
   */
  provider?: 'custom' | 'builtin';
  /** Where Codex sends model requests, e.g. `http://127.0.0.1:8642/v1`. Omit when `config` says it all. */
  baseUrl?: string;
  model?: string;
  /** Extra top-level TOML keys (before any table). */
  topLevel?: string;
  /** Extra TOML tables, appended at the end. */
  tables?: string;
  /** Replaces the whole generated config.toml. */
  config?: string;
  /** Extra `codex exec` arguments (before the prompt). */
  args?: string[];
  env?: Record<string, string>;
  apiKey?: string;
  /** A hand-made auth.json (e.g. a fake ChatGPT login). */
  authJson?: unknown;
  timeoutMs?: number;
  /** Files written into the work tree before Codex starts (e.g. AGENTS.md), by relative name. */
  files?: Record<string, string>;
}

/** What one Codex process printed and how it ended. */
export interface CodexOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** The `tokens used` figure Codex printed, or null when it printed none. */
  tokensUsed: number | null;
}

export interface CodexRun extends CodexOutput {
  codexHome: string;
  workDir: string;
  root: string;
  configToml: string;
  cleanup(): void;
}

export const TEST_API_KEY = fakeKey('test-codexdevtools-0123456789abcdef');

/** `tokens used\n1,956` → 1956. */
export function parseTokensUsed(output: string): number | null {
  const m = /tokens used\s*\n\s*([\d,]+)/.exec(output);
  return m ? Number(m[1].replace(/,/g, '')) : null;
}

export function codexConfig(opts: CodexRunOptions): string {
  if (opts.config !== undefined) return opts.config;
  const model = opts.model ?? 'gpt-5-codex';
  const top = opts.topLevel ? opts.topLevel.trim() + '\n' : '';
  if ((opts.provider ?? 'custom') === 'builtin') {
    return `model = "${model}"\n${opts.baseUrl ? `openai_base_url = "${opts.baseUrl}"\n` : ''}${top}${opts.tables ?? ''}`;
  }
  return (
    [
      `model = "${model}"`,
      `model_provider = "companion"`,
      top.trimEnd(),
      `[model_providers.companion]`,
      `name = "companion"`,
      `base_url = "${opts.baseUrl}"`,
      `wire_api = "responses"`,
      `env_key = "CODEX_DEVTOOLS_TEST_KEY"`,
      `stream_max_retries = 1`,
      `request_max_retries = 1`,
      opts.tables ?? '',
    ]
      .filter((l) => l !== '')
      .join('\n') + '\n'
  );
}

export interface PreparedCodex {
  root: string;
  codexHome: string;
  workDir: string;
  configToml: string;
  /** Environment for Codex (or a wrapper that launches it). */
  env: NodeJS.ProcessEnv;
  /** `codex exec --skip-git-repo-check … <prompt>` arguments. */
  execArgs: string[];
  cleanup(): void;
}

/** A fresh CODEX_HOME (config.toml, auth.json) and git work tree, without running anything. */
export function prepareCodex(opts: CodexRunOptions): PreparedCodex {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'codex-devtools-e2e-'));
  const codexHome = path.join(root, 'codex-home');
  const workDir = path.join(root, 'work');
  fs.mkdirSync(codexHome);
  fs.mkdirSync(workDir);
  execFileSync('git', ['init', '-q'], { cwd: workDir });
  for (const [name, text] of Object.entries(opts.files ?? {})) fs.writeFileSync(path.join(workDir, name), text);
  const configToml = codexConfig(opts);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), configToml);
  const apiKey = opts.apiKey ?? TEST_API_KEY;
  if (opts.authJson !== undefined) {
    fs.writeFileSync(path.join(codexHome, 'auth.json'), JSON.stringify(opts.authJson), { mode: 0o600 });
  } else if ((opts.provider ?? 'custom') === 'builtin') {
    fs.writeFileSync(path.join(codexHome, 'auth.json'), JSON.stringify({ auth_mode: 'apikey', OPENAI_API_KEY: apiKey }), { mode: 0o600 });
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CODEX_HOME: codexHome,
    CODEX_DEVTOOLS_TEST_KEY: apiKey,
    // Keep Codex off the network and away from the developer's own settings.
    OPENAI_API_KEY: '',
    NO_COLOR: '1',
    RUST_LOG: process.env.CODEX_TEST_RUST_LOG ?? '',
    ...opts.env,
  };
  return {
    root,
    codexHome,
    workDir,
    configToml,
    env,
    execArgs: ['exec', '--skip-git-repo-check', ...(opts.args ?? []), opts.prompt],
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * Runs Codex once in a prepared home and work tree (`args` default to the prepared `codex exec`;
 * pass others to resume a session) and collects its output, killing it after `timeoutMs`.
 */
export async function runPrepared(p: PreparedCodex, args: string[] = p.execArgs, timeoutMs = 60_000): Promise<CodexOutput> {
  const child = spawn(CODEX_BIN, args, { cwd: p.workDir, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  return { exitCode, stdout, stderr, tokensUsed: parseTokensUsed(stdout + '\n' + stderr) };
}

export async function runCodex(opts: CodexRunOptions): Promise<CodexRun> {
  const prepared = prepareCodex(opts);
  const { root, codexHome, workDir, configToml, cleanup } = prepared;
  return { ...(await runPrepared(prepared, prepared.execArgs, opts.timeoutMs)), codexHome, workDir, root, configToml, cleanup };
}

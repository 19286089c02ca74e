/**
 * @module Reading Codex's config.toml: where it is, which provider is in effect, where requests
 * go. Parsing uses smol-toml; nothing here writes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { isLoopbackUrl } from '../lib/loopback';

/** `$CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.CODEX_HOME || path.join(os.homedir(), '.codex'));
}

export const configPath = (home: string) => path.join(home, 'config.toml');

export type Toml = Record<string, unknown>;

/** Parses TOML text; throws a one-line error naming the file on a syntax error. */
export function parseToml(text: string, file = 'config.toml'): Toml {
  try {
    return parse(text) as Toml;
  } catch (err) {
    const msg = err instanceof TomlError ? err.message.split('\n')[0] : String(err);
    throw new Error(`${file} is not valid TOML (${msg})`);
  }
}

export interface EffectiveRoute {
  /** `openai` (built-in) or the custom provider's id. */
  provider: string;
  builtin: boolean;
  /** Where model requests go: openai_base_url for the built-in provider, the provider's base_url otherwise; null when default. */
  baseUrl: string | null;
}

/** The provider and base URL Codex will use with this config (ignoring `-c` overrides). */
export function effectiveRoute(config: Toml): EffectiveRoute {
  const provider = typeof config.model_provider === 'string' ? config.model_provider : 'openai';
  const builtin = ['openai', 'ollama', 'lmstudio', 'amazon-bedrock'].includes(provider);
  if (provider === 'openai')
    return { provider, builtin, baseUrl: typeof config.openai_base_url === 'string' ? config.openai_base_url : null };
  const providers = (config.model_providers ?? {}) as Record<string, Record<string, unknown>>;
  const base = providers[provider]?.base_url;
  return { provider, builtin, baseUrl: typeof base === 'string' ? base : null };
}

export function readConfig(home: string): { text: string | null; config: Toml } {
  const file = configPath(home);
  if (!fs.existsSync(file)) return { text: null, config: {} };
  const text = fs.readFileSync(file, 'utf8');
  return { text, config: parseToml(text, file) };
}

/** The base URL that sends Codex to the companion on `port`. */
export const companionUrl = (port: number) => `http://127.0.0.1:${port}/v1`;

/** True when `url` addresses the companion's own port on a loopback name, whatever its path. */
export function pointsAtCompanion(url: string, port: number): boolean {
  return isLoopbackUrl(url) && new URL(url).port === String(port);
}

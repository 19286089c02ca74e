// Types for browsers.mjs (plain JavaScript so the scripts run on bare Node), for the TypeScript tests.
export type Kind = 'chromium' | 'firefox';
interface Where {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}
export const TOOLS: string[];
export const DEBIAN_PACKAGES: Record<string, string>;
export function searchDirs(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string[];
export function findBrowser(kind: Kind, opts?: Where): string | null;
export function findCommand(name: string, env?: NodeJS.ProcessEnv): string | null;
export function survey(opts?: Where): { found: Record<string, string>; missing: string[] };
export function installer(
  opts?: Where & { interactive?: boolean },
): { ok: true; how: string; command: string[] } | { ok: false; reason: string };
export function install(missing: string[], command: string[], env?: NodeJS.ProcessEnv): boolean;
export function manualHint(platform?: NodeJS.Platform): string;
export function ensureTestTools(opts?: Where & { interactive?: boolean; log?: (line: string) => void }): {
  ok: boolean;
  found: Record<string, string>;
  missing: string[];
  reason?: string;
};

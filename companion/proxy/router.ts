/**
 * @module The router the proxy asks for every request: the active profile (pinned per turn,
 * so a switch applies from the next turn) or, by default, Codex's own credentials.
 */
import type { Profiles } from './profiles';
import {
  credentialRoute,
  detectAuth,
  hasCodexCredentials,
  upstreamTarget,
  type CredentialRouterOptions,
  type RouteDecision,
  type RouteRequest,
  type Router,
} from './route';
import type { HeaderPairs } from '../http/headers';
import { maskUrl } from '../lib/url-secrets';

/** Codex's credentials and account identifiers, never sent to a profile's host without its opt-in. */
const CODEX_CREDENTIALS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'chatgpt-account-id',
  'x-api-key',
  'api-key',
  'openai-organization',
  'openai-project',
]);

const MAX_PINNED_TURNS = 2000;

function turnIdOf(headers: HeaderPairs): string | null {
  const raw = headers.find(([k]) => k === 'x-codex-turn-metadata')?.[1];
  if (!raw) return null;
  try {
    const t = (JSON.parse(raw) as { turn_id?: unknown }).turn_id;
    return typeof t === 'string' && t ? t : null;
  } catch {
    return null; // unreadable metadata: no pin, the active profile applies
  }
}

export interface ProfileRouter extends Router {
  /** The profile a turn is pinned to, if any (for tests and the WebSocket relay). */
  pinnedProfile(turnId: string): string | undefined;
}

export function createRouter(opts: CredentialRouterOptions & { profiles: Profiles }): ProfileRouter {
  const pins = new Map<string, string>();
  const pin = (turnId: string, profileId: string) => {
    if (pins.has(turnId)) return;
    pins.set(turnId, profileId);
    if (pins.size > MAX_PINNED_TURNS) pins.delete(pins.keys().next().value as string);
  };
  return {
    pinnedProfile: (turnId) => pins.get(turnId),
    pin,
    resolve(req: RouteRequest): RouteDecision {
      const turnId = turnIdOf(req.headers);
      let profileId = turnId ? pins.get(turnId) : undefined;
      if (!profileId) {
        profileId = opts.profiles.activeId;
        if (turnId) pin(turnId, profileId);
      }
      const resolved = opts.profiles.resolve(profileId);
      const auth = detectAuth(req.headers);
      if (!resolved.ok) {
        return {
          ok: false,
          status: 503,
          type: 'profile_unusable',
          message: `codex-devtools: the active profile "${profileId}" cannot be used: ${resolved.reason}. Nothing was sent elsewhere. Fix the profile or switch back with \`codex-devtools profile use default\`.`,
          route: { profileId, upstream: '', auth, modelRequested: null, modelSent: null },
        };
      }
      const p = resolved.profile;
      if (!p) return credentialRoute(opts, req);
      const route = { profileId: p.id, upstream: maskUrl(p.baseUrl), auth, modelRequested: null, modelSent: p.modelOverride };
      // The key stands in for Codex's own credentials, so it goes only where those came: a
      // request without any (a web page's <img>, a stray curl) must never be given it.
      if (p.apiKey && !hasCodexCredentials(req.headers)) {
        return {
          ok: false,
          status: 401,
          type: 'missing_credentials',
          message: `codex-devtools: the active profile "${p.id}" adds its API key only to requests that carry Codex's own credentials, and this one carried none. Nothing was sent upstream.`,
          route,
        };
      }
      let headers = p.forwardCodexCredentials && !p.apiKey ? req.headers : req.headers.filter(([k]) => !CODEX_CREDENTIALS.has(k));
      if (p.apiKey) headers = [...headers, ['authorization', `Bearer ${p.apiKey}`]];
      return { ok: true, ...upstreamTarget(p.baseUrl, req, headers), route, modelOverride: p.modelOverride };
    },
  };
}

/**
 * @module Where a request goes. By default each request is routed by its own credentials
 * (architecture.md, "How Codex is pointed at the companion"): a ChatGPT login to the ChatGPT
 * backend, an API key to the API upstream. An active profile (see profiles.ts) overrides this.
 */
import type { Route } from '../protocol/exchange';
import type { HeaderPairs } from '../http/headers';

export type AuthKind = Route['auth'];

const JWT = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

/** Tells a ChatGPT login (account id header or JWT bearer) from an API key, from headers alone. */
export function detectAuth(headers: HeaderPairs): AuthKind {
  const get = (n: string) => headers.find(([k]) => k === n)?.[1];
  if (get('chatgpt-account-id')) return 'chatgpt';
  const auth = get('authorization');
  if (!auth) return 'none';
  const token = auth.replace(/^Bearer\s+/i, '').trim();
  return JWT.test(token) ? 'chatgpt' : 'apikey';
}

/** Joins a base URL (no trailing slash needed) with the path after `/v1` and the query. */
export function joinUpstream(base: string, suffix: string, query: string): string {
  return base.replace(/\/+$/, '') + (suffix.startsWith('/') ? suffix : `/${suffix}`) + query;
}

export interface RouteOk {
  ok: true;
  /** Full upstream URL, with query. */
  url: string;
  route: Route;
  /** Headers to send upstream (credentials swapped where a profile says so). */
  headers: HeaderPairs;
  /** Replaces `model` in the JSON body (profile model override), or null. */
  modelOverride: string | null;
}

export interface RouteRefused {
  ok: false;
  status: number;
  message: string;
  route: Route;
}

export type RouteDecision = RouteOk | RouteRefused;

export interface RouteRequest {
  headers: HeaderPairs;
  /** Path after `/v1`, e.g. `/responses`. */
  suffix: string;
  query: string;
}

export interface Router {
  resolve(req: RouteRequest): RouteDecision;
  /** Keeps a turn on the profile it started on (the WebSocket relay reports turns it sees in messages). */
  pin?(turnId: string, profileId: string): void;
}

export interface CredentialRouterOptions {
  apiUpstream: string;
  chatgptUpstream: string;
}

/** The default route: by credentials, headers forwarded as Codex sent them. */
export function credentialRoute(opts: CredentialRouterOptions, req: RouteRequest): RouteOk {
  const auth = detectAuth(req.headers);
  const base = auth === 'chatgpt' ? opts.chatgptUpstream : opts.apiUpstream;
  return {
    ok: true,
    url: joinUpstream(base, req.suffix, req.query),
    route: { profileId: 'default', upstream: base, auth, modelRequested: null, modelSent: null },
    headers: req.headers,
    modelOverride: null,
  };
}

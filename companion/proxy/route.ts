/**
 * @module Where a request goes. By default each request is routed by its own credentials
 * (architecture.md, "How Codex is pointed at the companion"): a ChatGPT login to the ChatGPT
 * backend, an API key to the API upstream. An active profile (see profiles.ts) overrides this.
 */
import type { Route } from '../protocol/exchange';
import { maskUrl, splitUserinfo } from '../lib/url-secrets';
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

/**
 * Joins a base URL with the path after `/v1` and Codex's query. A query in the base URL (a
 * gateway's `?api-key=…`) stays a query: `https://gw/v1?api-key=k` + `/responses` + `?x=1` →
 * `https://gw/v1/responses?api-key=k&x=1`. A fragment in the base is dropped (never sent).
 */
export function joinUpstream(base: string, suffix: string, query: string): string {
  const hash = base.indexOf('#');
  const noHash = hash < 0 ? base : base.slice(0, hash);
  const q = noHash.indexOf('?');
  const path = (q < 0 ? noHash : noHash.slice(0, q)).replace(/\/+$/, '');
  const params = [q < 0 ? '' : noHash.slice(q + 1), query.replace(/^\?/, '')].filter(Boolean).join('&');
  return path + (suffix.startsWith('/') ? suffix : `/${suffix}`) + (params ? `?${params}` : '');
}

/**
 * The wire target of a request: the joined URL without userinfo, which becomes Basic auth when the
 * request carries no Authorization of its own (what Node's http client and `ws` do with userinfo).
 */
export function upstreamTarget(base: string, req: RouteRequest, headers: HeaderPairs): { url: string; headers: HeaderPairs } {
  const joined = joinUpstream(base, req.suffix, req.query);
  const user = splitUserinfo(joined);
  if (!user) return { url: joined, headers };
  if (headers.some(([k]) => k === 'authorization')) return { url: user.url, headers };
  const basic = Buffer.from(`${user.user}:${user.password}`).toString('base64');
  return { url: user.url, headers: [...headers, ['authorization', `Basic ${basic}`]] };
}

/** True when Codex sent credentials of its own: an Authorization or an API-key header. */
export function hasCodexCredentials(headers: HeaderPairs): boolean {
  return headers.some(([k, v]) => (k === 'authorization' || k === 'api-key' || k === 'x-api-key') && v.trim() !== '');
}

export interface RouteOk {
  ok: true;
  /** Full upstream URL, with query: the wire value, never shown or stored (see `maskUrl`). */
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
  /** The OpenAI-style error type Codex receives. */
  type: 'profile_unusable' | 'missing_credentials';
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
    ...upstreamTarget(base, req, req.headers),
    route: { profileId: 'default', upstream: maskUrl(base), auth, modelRequested: null, modelSent: null },
    modelOverride: null,
  };
}

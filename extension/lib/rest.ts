/**
 * REST client for the companion's `/api` (extension pages and background): the pairing token as
 * a bearer, every answer parsed with the wire protocol's schemas, failures as `ApiError`.
 */
import { z } from 'zod';
import {
  CaptureStateSchema,
  CurlResponseSchema,
  ErrorResponseSchema,
  ExchangeListResponseSchema,
  ExchangeRecordSchema,
  HealthResponseSchema,
  ProfilePublicSchema,
  ProfilesResponseSchema,
  RateLimitsResponseSchema,
  SessionPageSchema,
  SessionReportSchema,
  TopExchangesResponseSchema,
  StatusResponseSchema,
  UsageResponseSchema,
  type CaptureState,
  type ExchangeListQuerySchema,
  type ExchangeListResponse,
  type ExchangeRecord,
  type ProfilePublic,
  type ProfilesResponse,
  type RateLimits,
  type SessionPage,
  type SessionReport,
  type TopExchangesResponse,
  type StatusResponse,
  type UsageResponse,
} from '../../companion/protocol';
import { ApiError, apiErrorMessage } from './api-error';
import { companionErrorText } from './companion-errors';
import { httpBase } from './companion-url';

export interface Endpoint {
  port: number;
  token: string | null;
}

export type ExchangeQuery = Partial<z.infer<typeof ExchangeListQuerySchema>>;
export type ExportFormat = 'har' | 'jsonl' | 'html';
export type SessionListQuery = { limit?: number; cursor?: string; q?: string };
export type UsageQuery = { session?: string; since?: number; until?: number };

export interface CompanionApi {
  health(): Promise<{ version: string }>;
  exchanges(query?: ExchangeQuery): Promise<ExchangeListResponse>;
  exchange(id: string): Promise<ExchangeRecord>;
  /** The request as a shell command ("Copy as cURL"), credentials left out. */
  curl(id: string): Promise<string>;
  clearExchanges(): Promise<{ deleted: number }>;
  /** The exchanges a list query selects, as a file (HAR, JSONL, or one session's HTML page). */
  exportFile(format: ExportFormat, query?: ExchangeQuery): Promise<{ name: string; blob: Blob }>;
  /** One session's thread tree, turns, totals and cache report. */
  sessionReport(id: string): Promise<SessionReport>;
  /** The paged, searchable session list (title, working directory, cost, misses). */
  sessionList(query: SessionListQuery): Promise<SessionPage>;
  /** The costliest exchanges, or the cache misses by what they cost. */
  report(kind: 'expensive' | 'cache-misses', query?: { session?: string; limit?: number }): Promise<TopExchangesResponse>;
  deleteSession(id: string): Promise<{ deleted: number }>;
  usage(query?: UsageQuery): Promise<UsageResponse>;
  rateLimits(): Promise<RateLimits | null>;
  status(): Promise<StatusResponse>;
  setCapturePaused(paused: boolean): Promise<CaptureState>;
  profiles(): Promise<ProfilesResponse>;
  activateProfile(id: string): Promise<ProfilePublic>;
}

const DeletedSchema = z.object({ deleted: z.number() });

function queryString(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * `endpoint` is read on every call, so a new pairing applies at once. `fetchImpl` defaults to the
 * global fetch (looked up per call, so tests can stub it).
 */
export function createCompanionApi(endpoint: () => Endpoint, fetchImpl?: typeof fetch): CompanionApi {
  /** Sends one request; an unpaired extension, an unreachable companion and an error status throw. */
  async function send(method: string, path: string, body?: unknown, needsToken = true): Promise<{ res: Response; base: string }> {
    const { port, token } = endpoint();
    const base = httpBase(port);
    if (needsToken && !token) throw new ApiError('unpaired', apiErrorMessage('unpaired', base));
    const headers: Record<string, string> = {};
    if (needsToken && token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await (fetchImpl ?? globalThis.fetch)(`${base}/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      throw new ApiError('offline', apiErrorMessage('offline', base, err instanceof Error ? err.message : String(err)));
    }
    if (!res.ok) {
      let json: unknown = null;
      try {
        json = await res.json();
      } catch {
        json = null; // error pages and empty bodies: the status decides below
      }
      // The companion sends a code and an English message: the code is translated when known.
      const err = ErrorResponseSchema.safeParse(json);
      const code = err.success ? err.data.error : null;
      const said = err.success ? companionErrorText('api', err.data.error, err.data.message) : `HTTP ${res.status}`;
      const type = res.status === 401 ? 'unauthorized' : res.status === 403 ? 'forbidden' : res.status === 404 ? 'not_found' : 'http';
      throw new ApiError(type, apiErrorMessage(type, base, said), res.status, code);
    }
    return { res, base };
  }

  async function call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown, needsToken = true): Promise<T> {
    const { res, base } = await send(method, path, body, needsToken);
    let json: unknown = null;
    try {
      json = await res.json();
    } catch {
      json = null; // an empty body: the schema decides below
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ApiError('bad_response', apiErrorMessage('bad_response', base, `${path}: ${issue?.path.join('.')} ${issue?.message}`));
    }
    return parsed.data;
  }

  return {
    health: () => call('GET', '/health', HealthResponseSchema, undefined, false),
    exchanges: (q = {}) => call('GET', `/exchanges${queryString(q)}`, ExchangeListResponseSchema),
    exchange: (id) => call('GET', `/exchanges/${encodeURIComponent(id)}`, ExchangeRecordSchema),
    curl: async (id) => (await call('GET', `/exchanges/${encodeURIComponent(id)}/curl`, CurlResponseSchema)).command,
    clearExchanges: () => call('DELETE', '/exchanges', DeletedSchema),
    exportFile: async (format, q = {}) => {
      const { res } = await send('GET', `/export${queryString({ ...q, format })}`);
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `codex-devtools-export.${format}`;
      return { name, blob: await res.blob() };
    },
    sessionReport: (id) => call('GET', `/sessions/${encodeURIComponent(id)}/report`, SessionReportSchema),
    sessionList: (q) => call('GET', `/sessions${queryString({ limit: 50, ...q })}`, SessionPageSchema),
    report: (kind, q = {}) => call('GET', `/reports/${kind}${queryString(q)}`, TopExchangesResponseSchema),
    deleteSession: (id) => call('DELETE', `/sessions/${encodeURIComponent(id)}`, DeletedSchema),
    usage: (q = {}) => call('GET', `/usage${queryString(q)}`, UsageResponseSchema),
    rateLimits: async () => (await call('GET', '/ratelimits', RateLimitsResponseSchema)).rateLimits,
    status: () => call('GET', '/status', StatusResponseSchema),
    setCapturePaused: (paused) => call('POST', paused ? '/capture/pause' : '/capture/resume', CaptureStateSchema),
    profiles: () => call('GET', '/profiles', ProfilesResponseSchema),
    activateProfile: (id) => call('POST', '/profiles/active', ProfilePublicSchema, { id }),
  };
}

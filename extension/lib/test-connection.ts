/** "Test connection" on the options page: is a companion there, and does it accept this token? */
import { ApiError } from './api-error';
import { tr } from './i18n';
import { fmtInt } from './format';
import { createCompanionApi, type Endpoint } from './rest';

export interface TestResult {
  ok: boolean;
  message: string;
}

export async function testConnection(endpoint: Endpoint, fetchImpl?: typeof fetch): Promise<TestResult> {
  const api = createCompanionApi(() => endpoint, fetchImpl);
  try {
    const { version } = await api.health();
    if (!endpoint.token) return { ok: false, message: tr('pairing.noToken', { version, port: endpoint.port }) };
    const status = await api.status();
    const stored = tr('pairing.connected', { version, n: fmtInt(status.store.exchanges) }, status.store.exchanges);
    return { ok: true, message: status.capture.paused ? `${stored} ${tr('pairing.capturePaused')}` : stored };
  } catch (err) {
    return { ok: false, message: err instanceof ApiError ? err.message : String(err) };
  }
}

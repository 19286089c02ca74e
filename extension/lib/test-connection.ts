/** "Test connection" on the options page: is a companion there, and does it accept this token? */
import { ApiError } from './api-error';
import { createCompanionApi, type Endpoint } from './rest';

export interface TestResult {
  ok: boolean;
  message: string;
}

export async function testConnection(endpoint: Endpoint, fetchImpl?: typeof fetch): Promise<TestResult> {
  const api = createCompanionApi(() => endpoint, fetchImpl);
  try {
    const { version } = await api.health();
    if (!endpoint.token) return { ok: false, message: `A companion (${version}) answers on port ${endpoint.port}, but no token is set.` };
    const status = await api.status();
    const paused = status.capture.paused ? ' Capture is paused.' : '';
    return { ok: true, message: `Connected to companion ${version}: token accepted, ${status.store.exchanges} exchanges stored.${paused}` };
  } catch (err) {
    return { ok: false, message: err instanceof ApiError ? err.message : String(err) };
  }
}

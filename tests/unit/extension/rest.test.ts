import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../extension/lib/api-error';
import { createCompanionApi } from '../../../extension/lib/rest';
import { testConnection } from '../../../extension/lib/test-connection';
import { startTestCompanion, type TestCompanion } from '../../support/companion';
import { recordOf } from '../../support/records';

describe('the REST client against a running companion', () => {
  let c: TestCompanion;
  const ids: string[] = [];

  beforeAll(async () => {
    c = await startTestCompanion();
    for (const [i, f] of ['b-tool-call-1.json', 'b-tool-call-2.json'].entries()) {
      const r = await recordOf(f, { id: `0b${i}`, startedAt: Date.UTC(2026, 10, 29, 12, 0, i) });
      await c.store.append(r);
      ids.push(r.id);
    }
  });
  afterAll(() => c.dispose());

  const api = (token: string | null = c.token()) => createCompanionApi(() => ({ port: c.port, token }));

  it('lists exchanges newest first and fetches a full record, parsed with the protocol schemas', async () => {
    const page = await api().exchanges({ limit: 1 });
    expect(page.items.map((s) => s.id)).toEqual([ids[1]]);
    expect(page.nextBefore).toBe(ids[1]);
    const older = await api().exchanges({ limit: 1, before: page.nextBefore! });
    expect(older.items.map((s) => s.id)).toEqual([ids[0]]);
    const record = await api().exchange(ids[1]);
    expect(record.request.body).toMatchObject({ model: 'gpt-5-codex' });
  });

  it('turns a wrong token into an "unauthorized" error that says how to pair again', async () => {
    const err = await api('wrong-token-0123456789')
      .status()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ type: 'unauthorized', status: 401 });
    expect((err as Error).message).toContain('codex-devtools token');
  });

  it('turns an unknown exchange into "not_found"', async () => {
    await expect(api().exchange('nope')).rejects.toMatchObject({ type: 'not_found', status: 404 });
  });

  it('does not call the companion without a token', async () => {
    await expect(api(null).sessionList({})).rejects.toMatchObject({ type: 'unpaired' });
  });

  it('pauses and resumes capture, and switches profile', async () => {
    expect(await api().setCapturePaused(true)).toMatchObject({ paused: true });
    expect(await api().setCapturePaused(false)).toMatchObject({ paused: false });
    expect((await api().profiles()).activeId).toBe('default');
    expect(await api().activateProfile('default')).toMatchObject({ id: 'default', builtin: true });
  });

  it('tests a pairing: a companion that accepts the token, and one that does not', async () => {
    expect(await testConnection({ port: c.port, token: c.token() })).toMatchObject({
      ok: true,
      message: expect.stringContaining('token accepted'),
    });
    expect(await testConnection({ port: c.port, token: 'wrong-token-0123456789' })).toMatchObject({ ok: false });
  });

  it('turns nothing listening into an "offline" error that says how to start the companion', async () => {
    const dead = createCompanionApi(() => ({ port: 1, token: 'x' }));
    const err = await dead.health().catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'offline' });
    expect((err as Error).message).toContain('npx codex-devtools');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newExchangeId } from '../../../companion/capture/ids';
import { createLogger } from '../../../companion/lib/log';
import type { ExchangeRecord } from '../../../companion/protocol/exchange';
import { decodeLine, encodeLine } from '../../../companion/store/legacy/line-format';
import { Store } from '../../../companion/store/store';
import { LineStore } from '../../../companion/store/legacy/line-store';
import type { ValueOf } from '../../support/arbitraries';
import { tempHome } from '../../support/companion';
import { codexSession, stepRecord } from '../../support/session';

const log = createLogger('silent');
/** As a body arrives from JSON (no -0, no undefined). */
const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** A store line's shape: a type tag, an id and any JSON beside them. */
const lineValue = fc
  .record({ t: fc.constantFrom('x', 'a', 'u'), id: fc.string({ maxLength: 24 }), s: fc.jsonValue(), p: fc.string({ unit: 'binary' }) })
  .map(asJson);

describe('the store codec, for any record and any damage (property)', () => {
  it('reads back every line exactly as encoded', () => {
    fc.assert(
      fc.property(lineValue, (v) => {
        const line = encodeLine(v);
        expect(line.endsWith('\n')).toBe(true);
        expect(decodeLine(line.slice(0, -1))).toEqual({ ok: true, value: v });
      }),
      { numRuns: 500 },
    );
  });

  it('detects any changed character of a line', () => {
    fc.assert(
      fc.property(lineValue, fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), (v, at, ch) => {
        const line = encodeLine(v).slice(0, -1);
        const chars = Array.from(line);
        const i = at % chars.length;
        fc.pre(chars[i] !== ch);
        chars[i] = ch;
        expect(decodeLine(chars.join('')).ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  describe('records of any input, stored as deltas', () => {
    let template: ExchangeRecord;
    const homes: string[] = [];
    beforeAll(async () => {
      template = await stepRecord(codexSession(1)[0]);
    });
    afterAll(() => {
      for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
    });

    /** Requests of two threads in two sessions; each keeps a random prefix of its thread's last input. */
    const requests = fc.array(
      fc.record({
        thread: fc.nat(1),
        session: fc.constantFrom('s-one', 'a session/with odd chars'),
        keep: fc.nat(8),
        add: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 4 }),
        tools: fc.option(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 8 },
    );

    function build(reqs: ValueOf<typeof requests>): ExchangeRecord[] {
      const last = new Map<string, unknown[]>();
      return reqs.map((r) => {
        const key = `${r.session}|${r.thread}`;
        const prev = last.get(key) ?? [];
        const input = [...prev.slice(0, r.keep), ...r.add];
        last.set(key, input);
        const body = { ...(template.request.body as object), input, ...(r.tools ? { tools: r.tools } : {}) };
        return asJson({
          ...template,
          id: newExchangeId(),
          sessionId: r.session,
          threadId: `t-${r.thread}`,
          request: { ...template.request, body },
        });
      });
    }

    it('gives back every record exactly, before and after a reopen', async () => {
      await fc.assert(
        fc.asyncProperty(requests, async (reqs) => {
          const records = build(reqs);
          const home = tempHome('codex-devtools-codec-');
          homes.push(home);
          const store = Store.open({ home, log });
          for (const r of records) await store.append(r);
          for (const r of records) expect(await store.get(r.id)).toEqual(r);
          store.close();
          const reopened = Store.open({ home, log });
          for (const r of records) expect(await reopened.get(r.id)).toEqual(r);
          expect(reopened.stats()).toMatchObject({ corruptLines: 0, tornBytes: 0 });
        }),
        { numRuns: 60 },
      );
    });

    it('keeps exactly the records written before the 0.1.0 log was cut, at any byte', async () => {
      await fc.assert(
        fc.asyncProperty(requests, fc.double({ min: 0, max: 1, noNaN: true }), async (reqs, where) => {
          const records = build(reqs).map((r) => ({ ...r, sessionId: 's-one' }));
          const home = tempHome('codex-devtools-codec-');
          homes.push(home);
          const store = LineStore.open({ home, log });
          const ends: number[] = [];
          const file = path.join(home, 'sessions', 's-one', 'log.jsonl');
          for (const r of records) {
            await store.append(r);
            ends.push(fs.statSync(file).size);
          }
          store.close();
          const cut = Math.floor(where * fs.statSync(file).size);
          fs.truncateSync(file, cut);
          const reopened = LineStore.open({ home, log });
          for (const [i, r] of records.entries()) {
            if (ends[i] <= cut) expect(await reopened.get(r.id)).toEqual(r);
            else expect(await reopened.get(r.id)).toBeNull();
          }
          expect(reopened.stats().corruptLines).toBe(0);
        }),
        { numRuns: 60 },
      );
    });
  });
});

/**
 * The companion's REST API as component tests see it: `fetch` stubbed with an answer per URL, a
 * 404 in the companion's error shape for anything unanswered, and every URL the page asked for
 * kept in order. Test-only.
 */
import { vi } from 'vitest';

/** The JSON body for a URL, or undefined when the companion has no such route. */
export type FakeAnswer = (url: URL) => unknown;

/** Stubs `fetch` with `answer`; returns the URLs asked for, appended as the page asks. */
export function stubCompanionApi(answer: FakeAnswer): URL[] {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url);
      asked.push(u);
      const body = answer(u);
      if (body === undefined) return new Response(JSON.stringify({ error: 'not_found', message: u.pathname }), { status: 404 });
      return new Response(JSON.stringify(body), { status: 200 });
    }),
  );
  return asked;
}

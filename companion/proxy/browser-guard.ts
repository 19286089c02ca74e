/**
 * @module The proxy routes never serve a browser. They cannot carry the pairing token (Codex does
 * not send it), so a web page that reached them could spend the user's key: an `<img>`, a no-cors
 * `fetch`, a form or a WebSocket from any page. Browsers mark every such request with an `Origin`
 * or fetch metadata (`Sec-Fetch-*`); Codex sends neither, so either one is refused, on every method
 * and on WebSocket upgrades, before anything is forwarded or recorded.
 */
import type { MiddlewareHandler } from 'hono';
import { openAiError, openAiErrorBody } from './errors';

const BROWSER_HEADERS = ['Origin', 'Sec-Fetch-Site', 'Sec-Fetch-Mode', 'Sec-Fetch-Dest', 'Sec-Fetch-User'] as const;

/** The first browser header a request carries (as browsers spell it), or null for one that did not come from a browser. */
export function browserMark(header: (lowerCaseName: string) => string | null | undefined): string | null {
  return BROWSER_HEADERS.find((name) => header(name.toLowerCase()) != null) ?? null;
}

function refusal(mark: string): { status: 403; type: string; message: string } {
  return {
    status: 403,
    type: 'browser_request_refused',
    message: `codex-devtools refuses proxy requests from web browsers: this request carried a ${mark} header, which Codex never sends.`,
  };
}

/** The refusal as an OpenAI-style JSON body, for a WebSocket upgrade answered by hand. */
export function browserRefusalBody(mark: string): string {
  const r = refusal(mark);
  return openAiErrorBody(r.type, r.message, 'codex_devtools_security');
}

/** Hono middleware for `/v1` and the ChatGPT-backend prefix. */
export function noBrowserRequests(): MiddlewareHandler {
  return async function noBrowserRequests(c, next) {
    const mark = browserMark((name) => c.req.header(name));
    if (mark) {
      const r = refusal(mark);
      return openAiError(r.status, r.type, r.message, 'codex_devtools_security');
    }
    await next();
  };
}

/**
 * @module The proxy routes never serve a browser. They cannot carry the pairing token (Codex does
 * not send it), so a web page that reached them could spend the user's key: an `<img>`, a no-cors
 * `fetch`, a form or a WebSocket from any page. Browsers mark every such request with an `Origin`
 * or fetch metadata (`Sec-Fetch-*`); Codex sends neither, so either one is refused, on every method
 * and on WebSocket upgrades, before anything is forwarded or recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openAiErrorBody } from './errors';

const BROWSER_HEADERS = ['Origin', 'Sec-Fetch-Site', 'Sec-Fetch-Mode', 'Sec-Fetch-Dest', 'Sec-Fetch-User'] as const;

/** The first browser header a request carries (as browsers spell it), or null for one that did not come from a browser. */
export function browserMark(req: Pick<IncomingMessage, 'headers'>): string | null {
  return BROWSER_HEADERS.find((name) => req.headers[name.toLowerCase()] !== undefined) ?? null;
}

/** The refusal as an OpenAI-style JSON body, for an HTTP request or a WebSocket upgrade. */
export function browserRefusalBody(mark: string): string {
  return openAiErrorBody(
    'browser_request_refused',
    `codex-devtools refuses proxy requests from web browsers: this request carried a ${mark} header, which Codex never sends.`,
    'codex_devtools_security',
  );
}

/** Answers a browser's request on the proxy routes with 403; true when it did. */
export function refuseBrowserRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const mark = browserMark(req);
  if (!mark) return false;
  res.writeHead(403, { 'content-type': 'application/json', 'x-codex-devtools-error': 'browser_request_refused' });
  res.end(browserRefusalBody(mark));
  return true;
}

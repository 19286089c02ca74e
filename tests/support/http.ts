/** A plain node:http client for tests that need exact bytes, custom Host headers or control over reading. Test-only. */
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** Sends a request and collects the whole response. */
export function rawRequest(url: string, opts: RawRequestOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Sends a request and hands back the live response stream (for streaming, slow-reader and abort tests). */
export function openRequest(url: string, opts: RawRequestOptions = {}): Promise<{ res: http.IncomingMessage; req: http.ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'POST', headers: opts.headers }, (res) => resolve({ res, req }));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Resolves with the next chunk of a response stream. */
export function nextChunk(res: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    res.once('data', (c: Buffer) => {
      res.pause();
      resolve(c);
    });
    res.once('error', reject);
    res.resume();
  });
}

/** Where the companion listens: a port (paired, or `?port=` on the page for tests), as HTTP and WebSocket addresses. */
export const DEFAULT_COMPANION_PORT = 8642;

/** A TCP port number, or null for anything else (strings from a hash or an input box included). */
export function parsePort(value: unknown): number | null {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 65536 ? n : null;
}

/** `?port=` of the current page: tests and development point a page at an ephemeral companion with it. */
export function portFromSearch(search: string = globalThis.location?.search ?? ''): number | null {
  return parsePort(new URLSearchParams(search).get('port'));
}

/** `http://127.0.0.1:<port>`: loopback by address, never `localhost` (the companion binds 127.0.0.1 only). */
export function httpBase(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** The live feed's WebSocket address. */
export function liveUrl(port: number): string {
  return `ws://127.0.0.1:${port}/api/live`;
}

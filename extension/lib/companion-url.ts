/** Where the companion listens: `?port=` on the page (tests, pairing), else the default port. */
export const DEFAULT_COMPANION_PORT = 8642;

export function companionBase(search: string = globalThis.location?.search ?? ''): string {
  const port = Number(new URLSearchParams(search).get('port'));
  const p = Number.isInteger(port) && port > 0 && port < 65536 ? port : DEFAULT_COMPANION_PORT;
  return `http://127.0.0.1:${p}`;
}

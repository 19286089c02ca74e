/**
 * The pairing code: what the companion prints and the extension's options page accepts,
 * `<port>:<token>`. It does not name the extension, so it pairs a store-installed Chrome extension
 * (whose id the store assigns), an unpacked development build and Firefox (a random UUID per
 * profile) alike.
 */
export function formatPairingCode(port: number, token: string): string {
  return `${port}:${token}`;
}

/** The port and token parts of a pairing code, still unchecked; null when the text is not shaped like one. */
export function splitPairingCode(text: string): { port: string; token: string } | null {
  const m = /^(\d+):(\S+)$/.exec(text.trim());
  return m ? { port: m[1], token: m[2] } : null;
}

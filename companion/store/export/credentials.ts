/** @module Headers an export leaves out whole: capture keeps at most their last characters, an export keeps nothing. */

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'openai-api-key',
  'chatgpt-account-id',
]);

export const isCredentialHeader = (name: string) => CREDENTIAL_HEADERS.has(name.toLowerCase());

/** `{name: value}` as HAR's `[{name, value}]`, credentials left out. */
export function headerList(headers: Record<string, string>): { name: string; value: string }[] {
  return Object.entries(headers)
    .filter(([name]) => !isCredentialHeader(name))
    .map(([name, value]) => ({ name, value }));
}

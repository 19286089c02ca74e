/**
 * Fake API keys for tests, shaped like OpenAI's (`sk-…`) so the companion treats them as keys.
 * Built at run time so that no key-shaped literal sits in the source for secret scanners to flag.
 * Test-only.
 */
export const fakeKey = (label: string): string => `sk-${label}`;

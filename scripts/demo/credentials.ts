/**
 * @module What would be a credential in a file meant to be shared: credential headers by name, and
 * the shapes of bearer tokens, OpenAI keys, JWTs and ChatGPT account ids anywhere in the text.
 */
const PATTERNS: [string, RegExp][] = [
  [
    'a credential header',
    /"(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|openai-api-key|chatgpt-account-id)"\s*:/i,
  ],
  ['a bearer token', /\bbearer\s+[\w.~+/-]+/i],
  ['an OpenAI key', /\bsk-[\w-]{4,}/],
  ['a JWT', /\beyJ[\w-]{8,}\.[\w-]{8,}\./],
  ['a ChatGPT account id', /\bacct_[\w-]{4,}/],
];

/** One line per kind of credential found in `text` (empty when there is none). */
export function credentialFindings(text: string): string[] {
  return PATTERNS.flatMap(([what, re]) => {
    const m = re.exec(text);
    return m ? [`${what} (${JSON.stringify(m[0].slice(0, 24))}…)`] : [];
  });
}

/** @module Error replies to Codex in OpenAI's error shape, naming the companion and never a key. */

export function openAiError(status: number, type: string, message: string, code: string | null = null): Response {
  return new Response(JSON.stringify({ error: { message, type, code, param: null } }), {
    status,
    headers: { 'content-type': 'application/json', 'x-codex-devtools-error': type },
  });
}

/** @module Error replies to Codex in OpenAI's error shape, naming the companion and never a key. */

/** The JSON body of an OpenAI-style error, for HTTP replies and refused WebSocket upgrades alike. */
export function openAiErrorBody(type: string, message: string, code: string | null = null): string {
  return JSON.stringify({ error: { message, type, code, param: null } });
}

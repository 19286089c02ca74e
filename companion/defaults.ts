/** @module Defaults shared by the CLI and the server, kept apart so light commands load nothing heavy. */
export const DEFAULT_PORT = 8642;
export const DEFAULT_API_UPSTREAM = 'https://api.openai.com/v1';
export const DEFAULT_CHATGPT_UPSTREAM = 'https://chatgpt.com/backend-api/codex';
export const DEFAULT_MAX_STORE_BYTES = 2 * 1024 ** 3;

/** @module The answer to a failure of the companion's own (HTTP 500): the same words wherever it happens; the details go to the log. */
export const INTERNAL_ERROR = { error: 'internal_error', message: 'codex-devtools hit an internal error; see its log.' } as const;

/** `INTERNAL_ERROR` as a JSON body, for replies written without Hono. */
export const INTERNAL_ERROR_BODY = JSON.stringify(INTERNAL_ERROR);

/** The one error type of the companion client: why a call failed, in words that say what to do next. */

export type ApiErrorType = 'unpaired' | 'offline' | 'unauthorized' | 'forbidden' | 'not_found' | 'http' | 'bad_response';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly type: ApiErrorType,
    message: string,
    /** HTTP status, when the companion answered. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

const START_HINT = 'Start it with `npx codex-devtools` (or check the port on the options page).';

/** The message for each failure, naming the likely cause and the fix. */
export function apiErrorMessage(type: ApiErrorType, base: string, detail = ''): string {
  const tail = detail ? ` (${detail})` : '';
  switch (type) {
    case 'unpaired':
      return 'Not paired with a companion yet: paste the pairing code `codex-devtools token` prints on the options page.';
    case 'offline':
      return `No companion at ${base}. ${START_HINT}${tail}`;
    case 'unauthorized':
      return `The companion at ${base} refused the pairing token. Pair again: run \`codex-devtools token\` and paste the pairing code it prints on the options page.${tail}`;
    case 'forbidden':
      return `The companion at ${base} refused this page's origin.${tail}`;
    case 'not_found':
      return `Not found on the companion at ${base}${tail}.`;
    case 'http':
      return `The companion at ${base} answered with an error${tail}.`;
    case 'bad_response':
      return `The companion at ${base} sent an answer this extension does not understand; update the older of the two.${tail}`;
  }
}

/** The one error type of the companion client: why a call failed, in words that say what to do next. */
import { tr } from './i18n';

export type ApiErrorType = 'unpaired' | 'offline' | 'unauthorized' | 'forbidden' | 'not_found' | 'http' | 'bad_response';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly type: ApiErrorType,
    message: string,
    /** HTTP status, when the companion answered. */
    readonly status: number | null = null,
    /** The companion's error code (`ErrorResponseSchema.error`), when it sent one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** The message for each failure, naming the likely cause and the fix, in the page's language. */
export function apiErrorMessage(type: ApiErrorType, base: string, detail = ''): string {
  const tail = detail ? tr('api.detail', { detail }) : '';
  switch (type) {
    case 'unpaired':
      return tr('api.unpaired');
    case 'offline':
      return `${tr('connection.noCompanion', { base })} ${tr('connection.start')}${tail}`;
    case 'unauthorized':
      return `${tr('api.unauthorized', { base })}${tail}`;
    case 'forbidden':
      return `${tr('api.forbidden', { base })}${tail}`;
    case 'not_found':
      return tr('api.notFound', { base, detail: tail });
    case 'http':
      return tr('api.http', { base, detail: tail });
    case 'bad_response':
      return `${tr('api.badResponse', { base })}${tail}`;
  }
}

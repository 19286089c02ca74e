/** @module The export formats by name, with their file extension and media type. */
import type { ExchangeRecord } from '../../protocol/exchange';
import { toHar } from './har';
import { toHtml } from './html';
import { toJsonl } from './jsonl';

export const EXPORT_FORMATS = {
  har: { extension: 'har', mediaType: 'application/json', render: toHar },
  jsonl: { extension: 'jsonl', mediaType: 'application/x-ndjson', render: toJsonl },
  /** One session per file: callers pass a session. */
  html: { extension: 'html', mediaType: 'text/html', render: toHtml },
} satisfies Record<string, { extension: string; mediaType: string; render: (records: readonly ExchangeRecord[]) => string }>;

export type ExportFormat = keyof typeof EXPORT_FORMATS;

export const isExportFormat = (v: unknown): v is ExportFormat => typeof v === 'string' && Object.hasOwn(EXPORT_FORMATS, v);

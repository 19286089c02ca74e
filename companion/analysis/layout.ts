/**
 * @module The request layout of one stored request (protocol/layout.ts), derived from its body
 * whenever a record is read: it would grow with the square of a session if stored per exchange.
 */
import type { ExchangeRecord } from '../protocol/exchange';
import type { RequestLayout } from '../protocol/layout';
import { layoutEntries } from './layout-entries';
import { layoutTools } from './layout-tools';

export function requestLayout(body: unknown): RequestLayout {
  return { tools: layoutTools(body), entries: layoutEntries(body) };
}

/** The record as the API serves it: with the layout of its request (null when it has no body or is not a model request). */
export function withLayout(record: ExchangeRecord): ExchangeRecord {
  const layout = record.kind === 'model' && record.request.body !== null ? requestLayout(record.request.body) : null;
  return { ...record, layout };
}

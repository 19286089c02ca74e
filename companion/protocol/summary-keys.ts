/**
 * @module The fields of an exchange summary, in the schema's order, without zod: the store splits
 * each record into its summary and the rest in the capture worker, which never loads the
 * schemas. The type below fails to compile when the schema gains a field this list lacks, and a
 * test holds the list equal to ExchangeSummarySchema's keys.
 */
import type { ExchangeSummary } from './exchange';

export const SUMMARY_KEYS = [
  'id',
  'kind',
  'transport',
  'status',
  'startedAt',
  'firstByteAt',
  'endedAt',
  'method',
  'path',
  'httpStatus',
  'model',
  'requestKind',
  'sessionId',
  'threadId',
  'parentThreadId',
  'turnId',
  'agent',
  'usage',
  'codexCounted',
  'error',
  'captureComplete',
  'route',
  'responseId',
  'preview',
  'requestBytes',
  'responseBytes',
  'cache',
  'costUsd',
  'facts',
  'source',
] as const satisfies readonly (keyof ExchangeSummary)[];

/** `true` only while every summary field is listed. */
type Complete = Exclude<keyof ExchangeSummary, (typeof SUMMARY_KEYS)[number]> extends never ? true : never;
export const SUMMARY_KEYS_COMPLETE: Complete = true;

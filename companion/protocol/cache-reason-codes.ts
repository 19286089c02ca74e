/**
 * @module Why a prompt cache missed, as codes (the panel translates them). A list of its own,
 * without zod, so the capture worker's analysis can check a code without loading the schemas;
 * analysis.ts makes the schema's enum from it.
 */
export const CACHE_REASON_CODES = [
  'cold',
  'idle_gap',
  'tools_changed',
  'instructions_changed',
  'model_changed',
  'reasoning_changed',
  'input_rewritten',
  'input_truncated',
  'input_modified',
  'cache_key_changed',
  'upstream_changed',
  'unexplained',
] as const;

/**
 * @module The English of every coded sentence the analysis serves (protocol/text-code.ts): one
 * template per code, filled in by `phrase`, so a rule states its verdict once and gets both the
 * English the CLI and API read and the code the panel translates (extension/locales: companionText).
 */
import type { TextCode, TextList, TextParam } from '../protocol/text-code';

export const ENGLISH = {
  'cacheWhy.notModel': 'not a model request: no prompt cache is involved',
  'cacheWhy.refused': 'HTTP {status}: the request was refused before it reached the model, which reported no usage',
  'cacheWhy.refusedCode': 'HTTP {status} {code}: the request was refused before it reached the model, which reported no usage',
  'cacheWhy.streaming': 'still streaming: usage arrives with the end of the response',
  'cacheWhy.failed': 'the request failed ({error}) and reported no usage',
  'cacheWhy.failedBare': 'the request failed and reported no usage',
  'cacheWhy.aborted': 'the request aborted ({error}) and reported no usage',
  'cacheWhy.abortedBare': 'the request aborted and reported no usage',
  'cacheWhy.unreached': 'the request never reached the upstream ({error}) and reported no usage',
  'cacheWhy.unreachedBare': 'the request never reached the upstream and reported no usage',
  'cacheWhy.noUsage': 'the upstream reported no usage for this exchange',
  'cacheWhy.prewarm': 'prewarm (generate: false): the request gave the model no input, so nothing could be read from the cache',
  'cacheWhy.zeroInput': 'the request reported 0 input tokens: nothing could be read from the cache',
  'cacheWhy.noCachedField': 'the upstream reported no cached_tokens field, so the cache read is unknown',
  'cacheWhy.firstCold': 'first request of this thread on prompt_cache_key {key}: nothing cached yet',
  'cacheWhy.firstColdNoKey': 'first request of this thread: nothing cached yet',
  'cacheWhy.firstHit':
    'first request of this thread on prompt_cache_key {key}, yet {cached} of its {input} input tokens came from the cache: an earlier request with the same prefix left them there',
  'cacheWhy.firstHitNoKey':
    'first request of this thread, yet {cached} of its {input} input tokens came from the cache: an earlier request with the same prefix left them there',
  'cacheWhy.previousNoUsage': 'the previous request of this thread reported no complete usage, so no expectation can be set',
  'cacheWhy.coldBelowMinimum': 'nothing cached yet: the previous request was below the {minimum} tokens OpenAI starts caching at',
  'cacheWhy.coldWithinThreshold': 'nothing read from the cache; only {expected} tokens were cacheable, within the miss threshold',
  'cacheWhy.hit': 'read {cached} cached tokens where {expected} were expected',
  'cacheWhy.miss': 'read {cached} cached tokens where {expected} were expected: {shortfall} short',

  'cacheEvidence.idleGap': '{idleMs} idle since the previous request on this key; the cache lives about {ttlMs}',
  'cacheEvidence.fieldChanged': '{field} {from} → {to}',
  'cacheEvidence.toolsAdded': 'added {names}',
  'cacheEvidence.toolsRemoved': 'removed {names}',
  'cacheEvidence.toolsChanged': 'changed {names}',
  'cacheEvidence.instructionsField': 'instructions field changed',
  'cacheEvidence.developerChanged': 'developer message at input {index} changed ({fields})',
  'cacheEvidence.developerAdded': '{n} developer message(s) added',
  'cacheEvidence.developerRemoved': '{n} developer message(s) removed',
  'cacheEvidence.historyReplaced': 'history replaced by a compaction',
  'cacheEvidence.itemsGone': '{n} earlier item(s) gone',
  'cacheEvidence.itemsRemoved': '{n} earlier item(s) removed, first: {first}',
  'cacheEvidence.itemChanged': 'input {index} ({label}) changed: {fields}',
  'cacheEvidence.itemsInserted': '{n} item(s) inserted before the end, first at input {index}',
  'cacheEvidence.onlyAppended': 'the request only appended to the previous one; the upstream likely evicted the cache',
  'cacheEvidence.onlyChanged': 'only {fields} changed; the upstream likely evicted the cache',
  'cacheEvidence.onlyAppendedInput': 'only appended input changed; the upstream likely evicted the cache',
  'cacheEvidence.noBody': 'the request body was not captured, so no change can be named',
  'cacheEvidence.fromRollout':
    'read from a Codex rollout, which holds no tools, cache key, headers or route: a change there cannot be named, only ruled out in the input',

  'pricing.priced': 'priced as {model}, the model that served the request; tier {tier}',
  'pricing.pricedRequested': 'priced as {model}, the model that served the request (Codex requested {requested}); tier {tier}',
  'pricing.zeroTokens': '0 input and 0 output tokens: $0 at any price',
  'pricing.noUsage': 'cost unknown: the upstream reported no usage for this exchange',
  'pricing.noModel': 'cost unknown: neither the request nor the response named a model',
  'pricing.unpriced':
    'cost unknown: no price is known for {model} at tier {tier}; add a row for it to prices.json in the companion’s state directory (~/.codex-devtools unless --home or CODEX_DEVTOOLS_HOME say otherwise) and restart the companion',
  'pricing.unpricedRequested':
    'cost unknown: no price is known for {model} (Codex requested {requested}) at tier {tier}; add a row for it to prices.json in the companion’s state directory (~/.codex-devtools unless --home or CODEX_DEVTOOLS_HOME say otherwise) and restart the companion',

  'calibration.above':
    'the reported input ({reported}) is ×{scale} the estimate of what the request shows ({estimate}): {unaccounted} tokens are in no section (opaque or encrypted input, a compaction, elided text), so sections keep their raw estimates; the raw view is the one to trust',
  'calibration.aboveOpaque':
    'the reported input ({reported}) is ×{scale} the estimate of what the request shows ({estimate}, {opaqueBytes} bytes of it opaque (encrypted or images)): {unaccounted} tokens are in no section (opaque or encrypted input, a compaction, elided text), so sections keep their raw estimates; the raw view is the one to trust',
  'calibration.below':
    'the reported input ({reported}) is ×{scale} the estimate ({estimate}): sections are scaled down that much; the raw view is the one to trust',

  'entry.instructionsField': 'instructions field',
  'entry.call': 'call {name}',
  'entry.output': 'output {callId}',
  'entry.outputBare': 'output',
  'entry.reasoning': 'reasoning (replayed)',
  'entry.compaction': 'compaction (encrypted summary)',
  'entry.compactionTrigger': 'compaction trigger',
  'entry.agent': 'agent {author} → {recipient}',
  'entry.toolSearch': 'tool_search output (deferred tools loaded here)',

  'item.output': 'output {callId}: {text}',
  'item.reasoning': 'reasoning: {text}',
  'item.agentMessage': 'agent message {author} → {recipient}',
} as const;

export type TextCodeName = keyof typeof ENGLISH;
export type TextParams = Record<string, TextParam>;

/** A sentence in English and as a code, from one rule. */
export interface Phrase {
  text: string;
  code: TextCode;
}

/** `5 s`, `6 min 0 s`: how the English says a duration. */
export const englishDuration = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

const englishList = (l: TextList): string => (l.more > 0 ? `${l.items.join(', ')} +${l.more} more` : l.items.join(', '));

function englishParam(name: string, v: TextParam): string {
  if (typeof v === 'string') return v;
  if (typeof v !== 'number') return englishList(v);
  if (name.endsWith('Ms')) return englishDuration(v);
  if (name === 'scale') return v < 10 ? v.toFixed(2) : String(Math.round(v));
  return v.toLocaleString('en-US');
}

/**
 * The sentence of `code` with `params`. `english` replaces parameters in the English only, where
 * it names a thing in words the code leaves to the translation (`none` for an absent value).
 */
export function phrase(code: TextCodeName, params: TextParams = {}, english: Record<string, string> = {}): Phrase {
  const text = ENGLISH[code].replace(/\{(\w+)\}/g, (m, name: string) =>
    name in english ? english[name] : name in params ? englishParam(name, params[name]) : m,
  );
  return { text, code: { code, params } };
}

/** Several phrases as one English sentence (`; ` between them) and their codes in order. */
export function phrases(list: Phrase[]): { text: string; codes: TextCode[] } {
  return { text: list.map((p) => p.text).join('; '), codes: list.map((p) => p.code) };
}

/** A list parameter of at most `max` names. */
export const nameList = (names: string[], max = 6): TextList => ({ items: names.slice(0, max), more: Math.max(0, names.length - max) });

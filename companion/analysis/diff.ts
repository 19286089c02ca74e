/**
 * @module The diff of a request against the previous request of its thread: top-level fields,
 * tools (wherever they travel), the leading developer messages, and the conversation. Computed
 * once per exchange and served with the record; the cache analysis reads its reasons from it.
 */
import type { ExchangeRecord } from '../protocol/exchange';
import type { FieldChange, ItemChange, ItemRef, RequestDiff, ToolChange, ToolRef } from '../protocol/analysis';
import { alignItems } from './item-align';
import { changedPromptFields, echoKey, itemRef, promptKey, sameItem } from './item-label';
import { canonicalJson, changedKeys, clip, isObj, jsonText, type Json } from '../lib/json';
import { contentTexts, readRequest, zoneOf, type RequestShape } from './request-shape';
import { isCompactionSummary } from '../protocol/section-names';
import { requestTools, type ToolEntry } from './tool-catalog';

/** Lists on the wire are capped; their `count` stays exact. */
const LIST_CAP = 100;
const list = <T>(items: T[]) => ({ count: items.length, items: items.slice(0, LIST_CAP) });

/** Body fields compared one by one; input and tools have their own diff, client_metadata changes every turn. */
const SKIPPED_FIELDS = new Set([
  'input',
  'tools',
  'client_metadata',
  'model',
  'reasoning',
  'service_tier',
  'prompt_cache_key',
  'instructions',
]);

/** Transport fields: they change how a request travels, not the prompt the cache keys on. */
const TRANSPORT_FIELDS = new Set(['stream', 'store', 'include', 'generate', 'previous_response_id', 'metadata']);

const show = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === 'string' ? v : clip(JSON.stringify(v), 120);

/**
 * A captured request against one read from a Codex rollout: the rollout holds the model, the
 * effort and the input, but no tools, cache key, service tier, route or other body fields, so
 * their absence on one side is not a change.
 */
const onlyOneFromRollout = (prev: ExchangeRecord, cur: ExchangeRecord) => (prev.source === 'rollout') !== (cur.source === 'rollout');

function fieldChanges(prev: ExchangeRecord, cur: ExchangeRecord, p: RequestShape, c: RequestShape): FieldChange[] {
  const out: FieldChange[] = [];
  const add = (field: string, from: unknown, to: unknown) => {
    if (canonicalJson(from ?? null) !== canonicalJson(to ?? null)) out.push({ field, from: show(from), to: show(to) });
  };
  add('model', p.model, c.model);
  add('reasoning_effort', p.reasoningEffort, c.reasoningEffort);
  if (onlyOneFromRollout(prev, cur)) return out;
  add('service_tier', p.serviceTier, c.serviceTier);
  add('prompt_cache_key', p.promptCacheKey, c.promptCacheKey);
  add('instructions', p.instructions, c.instructions);
  add('upstream', prev.route.upstream, cur.route.upstream);
  add('profile', prev.route.profileId, cur.route.profileId);
  add('window_number', prev.identity.windowNumber, cur.identity.windowNumber);
  const pr = isObj(p.body.reasoning) ? p.body.reasoning : {};
  const cr = isObj(c.body.reasoning) ? c.body.reasoning : {};
  for (const k of changedKeys(pr, cr)) if (k !== 'effort') add(`reasoning.${k}`, pr[k], cr[k]);
  // Keys only, then values: comparing `input` here would canonicalise the whole history again.
  const keys = new Set([...Object.keys(p.body), ...Object.keys(c.body)]);
  for (const k of [...keys].sort()) if (!SKIPPED_FIELDS.has(k)) add(k, p.body[k], c.body[k]);
  return out;
}

/** What identifies a tool's definition, field by field. */
function toolSignature(t: ToolEntry): Json {
  const { type, name: _name, namespace: _ns, description: _d, parameters, format, ...other } = t.definition;
  return {
    type,
    description: t.nestedText ?? t.execPreamble ?? t.description,
    parameters,
    format,
    namespace_description: t.namespaceDescription,
    placement: t.ref.placement,
    other,
  };
}

/**
 * Tools in `body.tools` and the leading tool catalogs: the ones that sit before the conversation.
 * `catalogsOnly` leaves out those of `body.tools` (a catalog's tool of the same key still wins).
 */
function prefixTools(shape: RequestShape, catalogsOnly: boolean): Map<string, ToolEntry> {
  const map = new Map<string, ToolEntry>();
  for (const t of requestTools(shape.body)) {
    if (catalogsOnly && t.itemIndex === null) continue;
    const leading = t.itemIndex === null || t.itemIndex < shape.conversationStart;
    if (leading && t.ref.placement !== 'tool_search_output') map.set(t.ref.key, t);
  }
  return map;
}

/** Whether two requests send the same `body.tools`, text for text. */
function sameToolList(p: RequestShape, c: RequestShape): boolean {
  const [a, b] = [p.body.tools, c.body.tools];
  return Array.isArray(a) && Array.isArray(b) && jsonText(a) === jsonText(b);
}

function diffTools(p: RequestShape, c: RequestShape): RequestDiff['tools'] {
  // Codex resends its tool list as it was: then none of its tools changed, and comparing them one
  // by one, each side stringified, was the analysis's largest allocation (some 80 KB a turn).
  // The text is the one the store hashes the list by, computed once.
  const catalogsOnly = sameToolList(p, c);
  const before = prefixTools(p, catalogsOnly);
  const after = prefixTools(c, catalogsOnly);
  const added: ToolRef[] = [];
  const removed: ToolRef[] = [];
  const changed: ToolChange[] = [];
  for (const [key, t] of after) {
    const old = before.get(key);
    if (!old) added.push(t.ref);
    else {
      const [a, b] = [toolSignature(old), toolSignature(t)];
      // Codex resends its tools as they were, keys in the same order: equal texts are the common
      // case, and canonicalising every field of every tool is then wasted work.
      if (JSON.stringify(a) === JSON.stringify(b)) continue;
      const fields = changedKeys(a, b);
      if (fields.length > 0) changed.push({ ...t.ref, fields });
    }
  }
  for (const [key, t] of before) if (!after.has(key)) removed.push(t.ref);
  return { added, removed, changed };
}

/** A request with the prompt key of each input item (ids and status left out), computed once per diff. */
interface Side {
  shape: RequestShape;
  keys: string[];
}

/** Leading developer messages, compared position by position. */
function diffInstructions({ shape: p, keys: pk }: Side, { shape: c, keys: ck }: Side): RequestDiff['instructions'] {
  const devs = (s: RequestShape) =>
    s.input.map((item, index) => ({ item, index })).filter(({ index }) => zoneOf(s, index) === 'instructions');
  const a = devs(p);
  const b = devs(c);
  const changed: ItemChange[] = [];
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const x = a[k].item as Json;
    const y = b[k].item as Json;
    if (pk[a[k].index] !== ck[b[k].index])
      changed.push({ ...itemRef(y, b[k].index), previousIndex: a[k].index, fields: changedPromptFields(x, y) });
  }
  return {
    added: list(b.slice(a.length).map(({ item, index }) => itemRef(item, index))),
    removed: list(a.slice(b.length).map(({ item, index }) => itemRef(item, index))),
    changed: list(changed),
  };
}

/** A compaction item (remote) or Codex's summary message (local): the history was replaced. */
const isRewriteMarker = (i: unknown): boolean =>
  isObj(i) && (i.type === 'compaction' || (i.type === 'message' && i.role === 'user' && contentTexts(i).some(isCompactionSummary)));

function diffConversation(prev: ExchangeRecord, cur: ExchangeRecord, ps: Side, cs: Side): RequestDiff['input'] {
  const { shape: p } = ps;
  const { shape: c } = cs;
  const a = p.input.slice(p.conversationStart);
  const b = c.input.slice(c.conversationStart);
  const ak = ps.keys.slice(p.conversationStart);
  const bk = cs.keys.slice(c.conversationStart);
  const al = alignItems(ak, bk, (i, j) => sameItem(a[i], b[j]));
  const ref = (items: unknown[], offset: number) => (k: number) => itemRef(items[k], k + offset);
  const prevRef = ref(a, p.conversationStart);
  const curRef = ref(b, c.conversationStart);
  const outputs = new Set(prev.response.output.map(echoKey).filter((k): k is string => k !== null));
  const appended: ItemRef[] = al.appended.map(curRef);
  const echoed = al.appended.filter((k) => {
    const key = echoKey(b[k]);
    return key !== null && outputs.has(key);
  }).length;
  const windowChanged =
    prev.identity.windowNumber !== null && cur.identity.windowNumber !== null && prev.identity.windowNumber !== cur.identity.windowNumber;
  const earlierMarkers = new Set(ak.filter((_, i) => isRewriteMarker(a[i])));
  const newlyCompacted = b.some((item, j) => isRewriteMarker(item) && !earlierMarkers.has(bk[j]));
  return {
    previousCount: a.length,
    currentCount: b.length,
    commonPrefix: al.commonPrefix,
    appended: list(appended),
    echoed,
    removed: list(al.removed.map(prevRef)),
    inserted: list(al.inserted.map(curRef)),
    changed: list(
      al.changed.map(([i, j]) => ({
        ...curRef(j),
        previousIndex: i + p.conversationStart,
        fields: changedPromptFields(a[i] as Json, b[j] as Json),
      })),
    ),
    rewritten: windowChanged || newlyCompacted,
  };
}

/** First input index where the two inputs differ, unless the previous input is a prefix of the current one. */
function firstDivergence({ shape: p, keys: pk }: Side, { shape: c, keys: ck }: Side): RequestDiff['firstDivergence'] {
  const n = Math.min(pk.length, ck.length);
  for (let i = 0; i < n; i++) if (pk[i] !== ck[i]) return { index: i, zone: zoneOf(c, i) };
  return pk.length > ck.length ? { index: n, zone: zoneOf(p, n) } : null;
}

/** How `current` differs from `previous` (the previous request of the same thread). */
export function diffExchanges(previous: ExchangeRecord, current: ExchangeRecord): RequestDiff {
  const p = readRequest(previous.request.body);
  const c = readRequest(current.request.body);
  const ps: Side = { shape: p, keys: p.input.map(promptKey) };
  const cs: Side = { shape: c, keys: c.input.map(promptKey) };
  const fields = fieldChanges(previous, current, p, c);
  const tools = onlyOneFromRollout(previous, current) ? { added: [], removed: [], changed: [] } : diffTools(p, c);
  const divergence = firstDivergence(ps, cs);
  const prefixPreserved =
    divergence === null &&
    fields.every((f) => TRANSPORT_FIELDS.has(f.field)) &&
    tools.added.length + tools.removed.length + tools.changed.length === 0;
  return {
    previousId: previous.id,
    prefixPreserved,
    firstDivergence: divergence,
    fields,
    tools,
    instructions: diffInstructions(ps, cs),
    input: diffConversation(previous, current, ps, cs),
  };
}

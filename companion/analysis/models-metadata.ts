/**
 * @module Context windows from the model metadata Codex fetches (`GET /models`, answered as
 * `{"models":[{"slug","context_window",…}]}`, the shape of Codex's bundled catalog) or from
 * configuration (`model_context_window`). A model found in neither has an unknown window.
 */
import { arr, isObj, str } from '../lib/json';
import { normalizeModel } from './pricing';

/** `slug → context_window` from a `/models` response body; models without a window are left out. */
export function contextWindowsFromModels(body: unknown): Map<string, number> {
  const out = new Map<string, number>();
  const list = isObj(body) ? [...arr(body.models), ...arr(body.data)] : [];
  for (const m of list) {
    if (!isObj(m)) continue;
    const slug = str(m.slug) ?? str(m.id);
    const window = m.context_window;
    if (slug && typeof window === 'number' && Number.isFinite(window) && window > 0) out.set(normalizeModel(slug), Math.trunc(window));
  }
  return out;
}

/**
 * A lookup for `analyzeExchange`: configured windows first (a user's `model_context_window` is
 * what Codex itself uses), then `/models` metadata, else null.
 */
export function contextWindowLookup(sources: {
  models?: ReadonlyMap<string, number>;
  configured?: Readonly<Record<string, number>>;
}): (model: string) => number | null {
  const configured = new Map(Object.entries(sources.configured ?? {}).map(([k, v]) => [normalizeModel(k), v]));
  return (model) => {
    const m = normalizeModel(model);
    return configured.get(m) ?? sources.models?.get(m) ?? null;
  };
}

/** The context an import runs in inside a companion: the store and the capture's analysis engine over it. Test-only. */
import { createLogger } from '../../companion/lib/log';
import { AnalysisEngine, storeReads } from '../../companion/pipeline/analysis';
import type { ImportContext } from '../../companion/store/import/import';
import type { Store } from '../../companion/store/store';

export function importContext(store: Store, home: string): ImportContext {
  const engine = AnalysisEngine.open(storeReads(store), createLogger('silent'), home);
  return { store, analyse: async (r) => (await engine).run(r) };
}

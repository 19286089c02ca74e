/**
 * @module Imports run one at a time inside a companion (API calls and the Codex-home watcher
 * alike): two at once would each miss the other's exchanges when looking for duplicates. Each
 * first waits until everything forwarded so far is captured, so a response Codex has just written
 * to its rollout is found as captured rather than imported beside its capture.
 */
import type { ImportReport } from '../../protocol/api';
import type { ImportSources } from './import';

export interface ImportRunner {
  run(sources: ImportSources): Promise<ImportReport>;
}

export function createImportRunner(
  importHistory: (sources: ImportSources) => Promise<ImportReport>,
  captured: () => Promise<void>,
  onAdded: (report: ImportReport) => void,
): ImportRunner {
  let last: Promise<unknown> = Promise.resolve();
  return {
    run(sources) {
      const next = last.then(async () => {
        await captured();
        const report = await importHistory(sources);
        if (report.added > 0) onAdded(report);
        return report;
      });
      last = next.catch(() => undefined);
      return next;
    },
  };
}

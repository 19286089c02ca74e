/**
 * @module `codex-devtools import`: Codex rollouts (and JSONL exports) into the state directory,
 * through the running companion when there is one (so its panel and totals follow at once),
 * else straight into the store.
 */
import path from 'node:path';
import { codexHome } from '../codex/config-file';
import { createLogger } from '../lib/log';
import { readSettings } from '../lib/settings';
// A companion-less import is a composition root of its own: the store and the capture's analysis.
import { AnalysisEngine, storeReads } from '../pipeline/analysis';
import { ImportReportSchema, type ImportReport } from '../protocol/api';
import { importHistory, type ImportSources } from '../store/import/import';
import { RateLimitState } from '../store/ratelimit-state';
import { Store } from '../store/store';
import { callApi } from './client';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { COMMON, companionPort, home, parse } from './options';

export const IMPORT_HELP = `Usage: codex-devtools import [--codex-home <dir>]… [<file>…] [--home <dir>] [--port <n>] [--json]

Imports the history Codex wrote itself: every sessions/**/rollout-*.jsonl (and .jsonl.zst) and
archived_sessions/ file under each --codex-home (default $CODEX_HOME or ~/.codex), and any
rollout or \`codex-devtools export --format jsonl\` file named. One exchange per model response;
responses already captured or imported are skipped, so importing again changes nothing.
Goes through the companion running on --port (default 8642) when it uses this state directory.

Options:
  --codex-home <dir>   a Codex home to read (repeatable)
  --home <dir>         state directory (default $CODEX_DEVTOOLS_HOME or ~/.codex-devtools)
  --port <n>           the running companion's port
  --json               print the report as JSON`;

export function describeReport(r: ImportReport): string {
  const lines = [
    `Imported ${r.added} exchange${r.added === 1 ? '' : 's'} from ${r.files} file${r.files === 1 ? '' : 's'} (${r.threads} thread${r.threads === 1 ? '' : 's'}); ${r.duplicates} already known.`,
  ];
  if (r.malformed) lines.push(`Skipped ${r.malformed} malformed line${r.malformed === 1 ? '' : 's'}.`);
  for (const e of r.errors) lines.push(`  ${e}`);
  return lines.join('\n');
}

export async function importCommand(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    'import',
    args,
    { ...COMMON, 'codex-home': { type: 'string', multiple: true }, json: { type: 'boolean' } },
    true,
  );
  if (values.help) {
    console.log(IMPORT_HELP);
    return 0;
  }
  const homes = (values['codex-home'] as string[] | undefined) ?? [];
  const sources: Required<ImportSources> = {
    codexHomes: (homes.length || positionals.length ? homes : [codexHome()]).map((h) => path.resolve(h)),
    files: positionals.map((f) => path.resolve(f)),
  };
  const h = home(values.home);
  const p = companionPort(values, h);
  let report: ImportReport | null = null;
  if ((await probe(p)).kind === 'companion') {
    const r = await callApi(p, h, 'POST', '/import', sources);
    // 401: that companion keeps another state directory; this one is written directly.
    if (r.status !== 401) {
      if (r.status >= 400) throw new UsageError(`import failed: ${JSON.stringify(r.json)}`, 1);
      report = ImportReportSchema.parse(r.json);
    }
  }
  if (!report) {
    const log = createLogger('warn');
    const store = Store.open({ home: h, log });
    // The analysis a running companion gives them (it alone also learns windows from /models replies).
    const analysis = await AnalysisEngine.open(storeReads(store), log, h, readSettings(h).contextWindows ?? {});
    report = await importHistory({ store, analyse: (r) => analysis.run(r) }, sources);
    store.close();
    // What the popup shows when the companion starts next, unless it knows a newer reading.
    if (report.rateLimits) RateLimitState.inHome(h).update(report.rateLimits);
  }
  console.log(values.json ? JSON.stringify(report, null, 2) : describeReport(report));
  return report.errors.length && report.files === 0 ? 1 : 0;
}

/**
 * @module `codex-devtools export`: captured and imported history as HAR, JSONL or HTML, from the
 * running companion when there is one, else from the state directory.
 */
import fs from 'node:fs';
import { loadOrCreateToken } from '../lib/token';
import { createLogger } from '../lib/log';
import { EXPORT_FORMATS, isExportFormat } from '../store/export';
import { exportRecords, type ExportQuery } from '../store/export/select';
import { Store } from '../store/store';
import { probe } from '../lib/probe';
import { UsageError } from './errors';
import { COMMON, companionPort, home, parse } from './options';
import { parseWhen } from './usage';

export const EXPORT_HELP = `Usage: codex-devtools export --format har|jsonl|html [--session <id>] [--since <when>] [--until <when>] [-o <file>]

Writes the captured and imported exchanges (all, one session, or a time range) to a file, or to
standard output without -o. Credentials are never in it.
  har     HAR 1.2 for Chrome/Firefox DevTools and HTTP tools (SSE as text/event-stream,
          WebSocket frames in _webSocketMessages)
  jsonl   one record per line, as \`codex-devtools import FILE.jsonl\` reads it back
  html    one session (default: the latest) as a self-contained page, readable offline

Options: --since/--until as for \`usage\` (2026-11-30, today, 7d); --home <dir>; --port <n>`;

export async function exportCommand(args: string[]): Promise<number> {
  const { values } = parse('export', args, {
    ...COMMON,
    format: { type: 'string' },
    session: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    output: { type: 'string', short: 'o' },
  });
  if (values.help) {
    console.log(EXPORT_HELP);
    return 0;
  }
  const format = values.format;
  if (!isExportFormat(format))
    throw new UsageError(`--format must be ${Object.keys(EXPORT_FORMATS).join(' or ')}, not ${JSON.stringify(format)}`);
  const q: ExportQuery = {
    session: values.session as string | undefined,
    since: values.since !== undefined ? parseWhen('since', values.since as string) : undefined,
    until: values.until !== undefined ? parseWhen('until', values.until as string) : undefined,
  };
  const h = home(values.home);
  const p = companionPort(values, h);
  if (format === 'html' && !q.session) {
    // One page per session: the latest one unless told otherwise.
    const latest = Store.open({ home: h, log: createLogger('warn') })
      .list({ limit: 1000 })
      .items.find((s) => s.kind === 'model' && s.sessionId);
    if (!latest) throw new UsageError('nothing to export: no session in this state directory', 1);
    q.session = latest.sessionId!;
    console.error(`Exporting session ${q.session} (pass --session to choose another).`);
  }
  let text: string | null = null;
  if ((await probe(p)).kind === 'companion') {
    const params = new URLSearchParams({ format });
    for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
    const res = await fetch(`http://127.0.0.1:${p}/api/export?${params}`, { headers: { authorization: `Bearer ${loadOrCreateToken(h)}` } });
    // 401: that companion keeps another state directory; this one is read directly.
    if (res.status !== 401) {
      if (!res.ok) throw new UsageError(`export failed: ${await res.text()}`, 1);
      text = await res.text();
    }
  }
  text ??= EXPORT_FORMATS[format].render(await exportRecords(Store.open({ home: h, log: createLogger('warn') }), q));
  if (values.output) {
    fs.writeFileSync(values.output as string, text, { mode: 0o600 });
    console.error(`Wrote ${values.output}.`);
  } else process.stdout.write(text);
  return 0;
}

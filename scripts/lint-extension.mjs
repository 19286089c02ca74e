// `web-ext lint` (addons-linter, what AMO runs on a submission) over the built Firefox extension.
// Fails on any error and on any warning that is not in scripts/web-ext-lint-reviewed.json: a
// reviewed warning is recognised by its code and by a pattern of the bundled source around the
// reported position, so a new innerHTML or eval of our own is never hidden behind a library's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Characters of bundled source either side of a reported position that a pattern may span. */
const CONTEXT = 240;

/**
 * @typedef {{ code: string, message: string, file?: string, line?: number, column?: number }} LintMessage
 * @typedef {{ code: string, source: string, match: string, why: string }} Reviewed
 */

/**
 * Runs web-ext lint on `dir` and returns its JSON report.
 * @param {string} dir
 * @returns {{ errors: LintMessage[], warnings: LintMessage[], notices: LintMessage[] }}
 */
export function runLint(dir) {
  const webExt = path.resolve('node_modules/.bin/web-ext');
  const r = spawnSync(webExt, ['lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const start = r.stdout.indexOf('{');
  if (start < 0) throw new Error(`web-ext lint printed no report (exit ${r.status}):\n${r.stderr}`);
  return JSON.parse(r.stdout.slice(start));
}

/**
 * The bundled source around a message's position (the linter reports 1-based lines, 0-based columns).
 * @param {string} dir
 * @param {LintMessage} m
 */
function around(dir, m) {
  if (!m.file || !m.line) return '';
  const lines = fs.readFileSync(path.join(dir, m.file), 'utf8').split('\n');
  const text = lines[m.line - 1] ?? '';
  const col = m.column ?? 0;
  return text.slice(Math.max(0, col - CONTEXT), col + CONTEXT);
}

/**
 * Sorts a report into what fails (errors, unreviewed warnings) and the reviewed warnings.
 * @param {string} dir
 * @param {{ errors: LintMessage[], warnings: LintMessage[] }} report
 * @param {Reviewed[]} reviewed
 */
export function judge(dir, report, reviewed) {
  const unreviewed = [];
  const accepted = [];
  for (const w of report.warnings) {
    const context = around(dir, w);
    const entry = reviewed.find((r) => r.code === w.code && new RegExp(r.match).test(context));
    if (entry) accepted.push({ warning: w, entry });
    else unreviewed.push(w);
  }
  return { errors: report.errors, unreviewed, accepted };
}

/** @param {LintMessage} m */
const where = (m) => `${m.code} ${m.file ?? ''}${m.line ? `:${m.line}:${m.column ?? 0}` : ''}: ${m.message}`;

async function main() {
  const dir = path.resolve(process.argv[2] ?? '.output/firefox-mv3');
  const listFile = path.resolve(process.argv[3] ?? 'scripts/web-ext-lint-reviewed.json');
  const { reviewed } = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  const { errors, unreviewed, accepted } = judge(dir, runLint(dir), reviewed);
  for (const { warning, entry } of accepted) console.log(`web-ext lint: reviewed ${warning.code} in ${warning.file} (${entry.source})`);
  for (const e of errors) console.log(`web-ext lint: error ${where(e)}`);
  for (const w of unreviewed) console.log(`web-ext lint: unreviewed warning ${where(w)}`);
  if (errors.length || unreviewed.length) {
    console.log(
      `web-ext lint: ${errors.length} errors, ${unreviewed.length} unreviewed warnings (review them, or add them to ${path.relative(process.cwd(), listFile)} with why they are safe)`,
    );
    process.exit(1);
  }
  console.log(`web-ext lint: no errors, ${accepted.length} reviewed warnings`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();

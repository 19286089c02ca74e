/**
 * Captures what the real Codex CLI sends in several configurations (models, feature flags, an MCP
 * server) against the scripted fake upstream, into tests/fixtures/requests/<config>.json, so the
 * tool inventory and the concept docs rest on real, full request bodies.
 * Run: `npx tsx tests/support/capture-requests.ts [name-substring…]`. Test-only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CODEX_BIN, runCodex } from './codex';
import { CAPTURE_CONFIGS, type CaptureConfig } from './capture-configs';
import { startFakeUpstream, type ReceivedRequest } from './fake-upstream';

const OUT_DIR = path.resolve('tests/fixtures/requests');
const MCP_SERVER = path.resolve('tests/support/mcp-mini-server.mjs');

function mcpTable(): string {
  return `[mcp_servers.mini]\ncommand = "node"\nargs = [${JSON.stringify(MCP_SERVER)}]\n`;
}

/** Machine-specific values (scratch folders, ports, the repo path) would make every capture differ. */
function scrub(text: string, root: string, port: number): string {
  return text
    .split(root)
    .join('<scratch>')
    .split(path.resolve('.'))
    .join('<repo>')
    .replace(new RegExp(`127\\.0\\.0\\.1:${port}`, 'g'), '127.0.0.1:<port>');
}

function withoutAuthorization(headers: ReceivedRequest['headers']): Record<string, unknown> {
  const { authorization: _authorization, ...rest } = headers;
  return rest;
}

async function capture(config: CaptureConfig, codexVersion: string): Promise<number> {
  const upstream = await startFakeUpstream({ scenario: config.scenario });
  try {
    const run = await runCodex({
      prompt: config.prompt ?? 'say hello',
      provider: config.provider,
      baseUrl: upstream.baseUrl,
      model: config.model,
      topLevel: config.topLevel,
      tables: [config.tables ?? '', config.mcp ? mcpTable() : ''].join('\n'),
      timeoutMs: 120_000,
    });
    try {
      const requests = upstream.modelRequests();
      if (requests.length === 0) throw new Error(`${config.name}: Codex sent no model request.\n${run.stderr.slice(-2000)}`);
      const kept = config.keep === 'all' ? requests : requests.slice(0, 1);
      const record = {
        captured_with: 'tests/support/capture-requests.ts: `codex exec --skip-git-repo-check` against tests/support/fake-upstream.ts',
        codex_version: codexVersion,
        config_name: config.name,
        purpose: config.purpose,
        config_toml: run.configToml,
        transport: config.provider === 'builtin' ? 'http (the fake refused the WebSocket upgrade with 426)' : 'http',
        exit_code: run.exitCode,
        requests: kept.map((r) => ({ n: r.n, method: r.method, url: r.url, headers: withoutAuthorization(r.headers), body: r.body })),
      };
      const text = scrub(JSON.stringify(record, null, 1), run.root, upstream.port) + '\n';
      fs.writeFileSync(path.join(OUT_DIR, `${config.name}.json`), text);
      return Buffer.byteLength(text);
    } finally {
      run.cleanup();
    }
  } finally {
    await upstream.close();
  }
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const codexVersion = execFileSync(CODEX_BIN, ['--version'], { encoding: 'utf8' }).trim();
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const selected = CAPTURE_CONFIGS.filter((c) => filters.length === 0 || filters.some((f) => c.name.includes(f)));
  for (const config of selected) {
    const bytes = await capture(config, codexVersion);
    process.stdout.write(`${config.name}: ${(bytes / 1024).toFixed(0)} KiB\n`);
  }
}

await main();

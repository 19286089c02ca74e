import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { doctorCommand } from '../../../companion/cli/doctor';
import { tempHome } from '../../support/companion';

// Nothing listens on port 1, so the companion checks answer at once; only the config lines matter here.
const PORT = 1;
const homes: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

/** The doctor's line about config.toml, for a config whose openai_base_url is `baseUrl`. */
async function configLine(baseUrl: string): Promise<string> {
  const codexHome = tempHome('codex-home-');
  const home = tempHome();
  homes.push(codexHome, home);
  fs.writeFileSync(path.join(codexHome, 'config.toml'), `openai_base_url = ${JSON.stringify(baseUrl)}\n`);
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  await doctorCommand(['--port', String(PORT), '--home', home, '--codex-home', codexHome, '--codex', path.join(home, 'no-codex')]);
  const line = lines.find((l) => l.includes('config.toml'));
  if (!line) throw new Error(`no config.toml line in:\n${lines.join('\n')}`);
  return line;
}

describe('codex-devtools doctor on the config in effect', () => {
  it("accepts a base URL on this companion's port under its /v1 proxy, by any loopback name", async () => {
    for (const url of [`http://127.0.0.1:${PORT}/v1`, `http://localhost:${PORT}/v1/`, `http://[::1]:${PORT}/v1`])
      expect(await configLine(url), url).toMatch(/^✓ .*sends model requests to/);
  });

  it("says the path is wrong, not the port, for this companion's port outside /v1", async () => {
    for (const url of [`http://127.0.0.1:${PORT}`, `http://127.0.0.1:${PORT}/`, `http://127.0.0.1:${PORT}/api/`])
      expect(await configLine(url), url).toMatch(
        new RegExp(`^✗ .*this companion's port, but outside its proxy under /v1.*http://127\\.0\\.0\\.1:${PORT}/v1`),
      );
  });

  it('names the port for a local proxy on another port, and leaves a remote base URL alone', async () => {
    expect(await configLine('http://127.0.0.1:4000/v1')).toMatch(`✗ `);
    expect(await configLine('http://127.0.0.1:4000/v1')).toContain(`not to this companion's port ${PORT}`);
    expect(await configLine('https://gateway.example.com/v1')).toMatch(/^✓ .*goes to https:\/\/gateway\.example\.com\/v1/);
  });
});

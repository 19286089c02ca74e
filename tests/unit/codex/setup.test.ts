import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'smol-toml';
import { remove, setup, setupUpstream, BEGIN, END } from '../../../companion/codex/setup';
import { hookUp } from '../../../companion/cli/run';
import { tempHome } from '../../support/companion';

const homes: string[] = [];
function codexHome(config?: string): string {
  const h = tempHome('codex-home-');
  homes.push(h);
  if (config !== undefined) fs.writeFileSync(path.join(h, 'config.toml'), config);
  return h;
}
const read = (h: string) => fs.readFileSync(path.join(h, 'config.toml'), 'utf8');
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

const ENDS_IN_TABLE = `model = "gpt-5-codex"
approval_policy = "on-request"

[features]
multi_agent_v2 = true

[projects."/home/me/src/app"]
trust_level = "trusted"
`;

describe('codex-devtools setup and setup --remove', () => {
  it('puts openai_base_url at the top level of a config that ends inside a table, and removes it byte for byte', () => {
    const h = codexHome(ENDS_IN_TABLE);
    const r = setup(h, 8642);
    expect(r.changed).toBe(true);
    const text = read(h);
    expect(text.startsWith(BEGIN)).toBe(true);
    const parsed = parse(text) as any;
    expect(parsed.openai_base_url).toBe('http://127.0.0.1:8642/v1');
    expect(parsed.features).toEqual({ multi_agent_v2: true });
    expect(parsed.projects['/home/me/src/app'].trust_level).toBe('trusted');
    expect(fs.readFileSync(r.backup!, 'utf8')).toBe(ENDS_IN_TABLE);
    expect(fs.statSync(r.backup!).mode & 0o777).toBe(0o600);
    remove(h);
    expect(read(h)).toBe(ENDS_IN_TABLE);
  });

  it('takes over an existing openai_base_url inside the block and restores it on removal, never duplicated', () => {
    const original = `# my settings\nopenai_base_url = "https://gateway.example.com/v1"  # corporate gateway\nmodel = "o3"\n[tui]\nanimations = false\n`;
    const h = codexHome(original);
    setup(h, 9000);
    const text = read(h);
    expect(text.match(/^openai_base_url\s*=/gm)).toHaveLength(1);
    expect((parse(text) as any).openai_base_url).toBe('http://127.0.0.1:9000/v1');
    expect(text).toContain('previous openai_base_url: https://gateway.example.com/v1');
    remove(h);
    expect(read(h)).toBe(original);
  });

  it("keeps Codex's own later edits (trusted projects, model choice) when removing", () => {
    const h = codexHome('model = "gpt-5-codex"\n');
    setup(h, 8642);
    // What Codex writes while set up: a new model choice and a trusted project at the end.
    fs.writeFileSync(
      path.join(h, 'config.toml'),
      read(h).replace('model = "gpt-5-codex"', 'model = "gpt-6.1-sol"') + '\n[projects."/tmp/w"]\ntrust_level = "trusted"\n',
    );
    remove(h);
    expect(read(h)).toBe('model = "gpt-6.1-sol"\n\n[projects."/tmp/w"]\ntrust_level = "trusted"\n');
    expect(read(h)).not.toContain('codex-devtools');
  });

  it('creates the file when there is none, and deletes it again on removal', () => {
    const h = codexHome();
    setup(h, 8642);
    expect((parse(read(h)) as any).openai_base_url).toBe('http://127.0.0.1:8642/v1');
    remove(h);
    expect(fs.existsSync(path.join(h, 'config.toml'))).toBe(false);
  });

  it('keeps CRLF line ends and a byte-order mark intact', () => {
    const original = '\ufeffmodel = "o3"\r\n[tui]\r\nanimations = false\r\n';
    const h = codexHome(original);
    setup(h, 8642);
    expect(read(h).startsWith('\ufeff' + BEGIN + '\r\n')).toBe(true);
    remove(h);
    expect(read(h)).toBe(original);
  });

  it('refuses when another local proxy is already configured', () => {
    const h = codexHome('openai_base_url = "http://localhost:4000/v1"\n');
    expect(() => setup(h, 8642)).toThrow(/already points Codex at a local proxy/);
    expect(read(h)).toBe('openai_base_url = "http://localhost:4000/v1"\n');
  });

  it('refuses a custom provider with advice, and an invalid file with its error, changing nothing', () => {
    const custom = 'model_provider = "corp"\n[model_providers.corp]\nname = "corp"\nbase_url = "https://llm.corp/v1"\n';
    const h = codexHome(custom);
    expect(() => setup(h, 8642)).toThrow(/custom provider "corp".*--upstream https:\/\/llm.corp\/v1/);
    const bad = codexHome('model = "o3"\nmodel = "o4"\n');
    expect(() => setup(bad, 8642)).toThrow(/not valid TOML/);
    expect(read(bad)).toBe('model = "o3"\nmodel = "o4"\n');
  });

  it('is idempotent for the same port and refuses another port until removed', () => {
    const h = codexHome('model = "o3"\n');
    setup(h, 8642);
    const once = read(h);
    expect(setup(h, 8642).changed).toBe(false);
    expect(read(h)).toBe(once);
    expect(() => setup(h, 9999)).toThrow(/already has a codex-devtools block/);
    expect(once.split(END)).toHaveLength(2);
  });

  it('says so when there is nothing to remove', () => {
    const h = codexHome('model = "o3"\n');
    expect(remove(h).changed).toBe(false);
    expect(read(h)).toBe('model = "o3"\n');
  });
});

describe('the upstream setup recorded', () => {
  const GATEWAY = 'https://gateway.example.com/v1';

  it('is the openai_base_url Codex had before setup, for the companion on the port setup chose', () => {
    const h = codexHome(`openai_base_url = "${GATEWAY}"\nmodel = "o3"\n`);
    setup(h, 9000);
    expect(setupUpstream(h, 9000)).toBe(GATEWAY);
    expect(setupUpstream(h, 8642)).toBeNull();
    remove(h);
    expect(setupUpstream(h, 9000)).toBeNull();
  });

  it('is none when Codex had no base URL of its own, or the file has no setup block', () => {
    const plain = codexHome('model = "o3"\n');
    setup(plain, 9000);
    expect(setupUpstream(plain, 9000)).toBeNull();
    expect(setupUpstream(codexHome(`openai_base_url = "${GATEWAY}"\n`), 9000)).toBeNull();
    expect(setupUpstream(codexHome(), 9000)).toBeNull();
  });

  it('becomes the upstream of `run` on that port, while `-c` still points Codex at the companion', () => {
    const h = codexHome(`openai_base_url = "${GATEWAY}"\n`);
    setup(h, 9000);
    expect(hookUp(9000, { CODEX_HOME: h })).toEqual({
      overrides: ['-c', 'openai_base_url="http://127.0.0.1:9000/v1"'],
      upstream: GATEWAY,
      recorded: GATEWAY,
      provider: 'openai',
    });
    // Another port: the config's base URL is some other local proxy's, and is the upstream as before.
    expect(hookUp(8642, { CODEX_HOME: h })).toMatchObject({ upstream: 'http://127.0.0.1:9000/v1', recorded: null });
  });
});

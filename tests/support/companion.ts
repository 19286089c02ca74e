/** Starts a companion in-process on an ephemeral loopback port, with its own state directory. Test-only. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { startCompanion, type Companion, type CompanionOptions } from '../../companion/server';

export interface TestCompanion extends Companion {
  home: string;
  /** Closes the companion and removes its state directory. */
  dispose(): Promise<void>;
}

export function tempHome(prefix = 'codex-devtools-home-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A maker of state directories for one test file, each removed after its tests (registers the
 * `afterAll` itself, so call it at the top level or inside a describe).
 */
export function tempHomes(prefix?: string): () => string {
  const homes: string[] = [];
  afterAll(() => {
    for (const h of homes) fs.rmSync(h, { recursive: true, force: true });
  });
  return () => {
    const h = tempHome(prefix);
    homes.push(h);
    return h;
  };
}

export async function startTestCompanion(opts: Partial<CompanionOptions> = {}): Promise<TestCompanion> {
  const home = opts.home ?? tempHome();
  const c = await startCompanion({ port: 0, logLevel: 'silent', ...opts, home });
  return {
    ...c,
    home,
    dispose: async () => {
      await c.close();
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

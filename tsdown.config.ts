import { defineConfig } from 'tsdown';

/** The companion bundle for Node 20; runtime dependencies stay external (package.json `dependencies`). */
export default defineConfig({
  // The capture worker is its own entry: its thread loads it by file name (pipeline/host.ts).
  entry: { cli: 'companion/cli.ts', 'capture-worker': 'companion/worker.ts' },
  outDir: 'dist/companion',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  clean: true,
  // The demo's history (`codex-devtools demo`), made by scripts/make-demo.ts, ships beside the CLI.
  copy: [{ from: 'companion/demo/demo-traffic.jsonl', to: 'dist/companion' }],
});

import { defineConfig } from 'tsdown';

/**
 * The companion bundle for Node 20; runtime dependencies stay external (package.json
 * `dependencies`). zod is bundled instead (a devDependency, as for the extension): tree-shaken, it
 * is the 185 kB the schemas use rather than zod's 95 modules with every locale, which cost a
 * companion at rest about 4.5 MB.
 */
export default defineConfig({
  // The capture worker is its own entry: its thread loads it by file name (pipeline/host.ts).
  entry: { cli: 'companion/cli.ts', 'capture-worker': 'companion/worker.ts' },
  outDir: 'dist/companion',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  clean: true,
  deps: { alwaysBundle: ['zod'], onlyBundle: ['zod'] },
  // The demo's history (`codex-devtools demo`), made by scripts/make-demo.ts, ships beside the CLI.
  copy: [{ from: 'companion/demo/demo-traffic.jsonl', to: 'dist/companion' }],
});

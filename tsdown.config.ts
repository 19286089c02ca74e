import { defineConfig } from 'tsdown';

/** The companion bundle for Node 20; runtime dependencies stay external (package.json `dependencies`). */
export default defineConfig({
  // The analysis worker is its own entry: worker threads load it by file name.
  entry: { cli: 'companion/cli.ts', 'analysis-worker': 'companion/capture/analysis-worker.ts' },
  outDir: 'dist/companion',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  clean: true,
});

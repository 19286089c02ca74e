import { defineConfig } from 'tsdown';

/** The companion bundle for Node 20; runtime dependencies stay external (package.json `dependencies`). */
export default defineConfig({
  entry: { cli: 'companion/cli.ts' },
  outDir: 'dist/companion',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  dts: false,
  clean: true,
});

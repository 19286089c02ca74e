import { defineConfig } from 'vitest/config';
import vue from '@vitejs/plugin-vue';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest(), vue()],
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // Components mount with the UI string layer (English) unless a test installs another locale.
    setupFiles: ['tests/support/i18n.ts'],
    restoreMocks: true,
    mockReset: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Codex and Chromium are real processes; two cores cannot run many at once.
    maxWorkers: 2,
  },
});

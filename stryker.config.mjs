// Mutation testing (`npm run mutate`): changes one operator, literal or condition at a time in the
// pure modules of companion/analysis/ and companion/capture/ and checks that some unit test fails.
// The score is the share of mutants caught; the HTML report lands in reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'companion/analysis/*.ts',
    // I/O and wiring, not rules: loading the tokenizer, the folder's index.
    '!companion/analysis/tokenizer.ts',
    '!companion/analysis/index.ts',
    'companion/capture/sse.ts',
    'companion/capture/assembler.ts',
    'companion/capture/identity.ts',
    'companion/capture/ratelimits.ts',
    'companion/capture/usage.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 80, low: 70, break: null },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

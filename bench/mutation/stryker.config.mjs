// Mutation testing of the two core modules whose mistakes users see directly: the budget plan and the
// lossless condenser (`npm run mutation`; results in bench/RESULTS.md). Only the unit tests of those modules
// run against each mutant, so a run takes minutes, not the whole suite per mutant.
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'bench/mutation/vitest.config.ts', related: false },
  mutate: ['src/core/budget/plan.ts', 'src/core/condense/lossless.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'bench/mutation/report.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  concurrency: 2,
  timeoutMS: 20000,
};

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The unit tests that exercise src/core/budget/plan.ts and src/core/condense/lossless.ts. The root is
// this file's project (Stryker's sandbox copy when it runs), never the folder a run starts in.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: [
      'test/unit/budget-plan.test.ts',
      'test/unit/lossless-rules.test.ts',
      'test/unit/condense.test.ts',
      'test/unit/condense-proof.test.ts',
      'test/unit/condense-levels-order.test.ts',
    ],
    pool: 'forks',
  },
});

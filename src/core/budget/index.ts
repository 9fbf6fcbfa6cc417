/** Budgets and baselines: pure verdicts over measured tool definitions. */
export * from './threshold.js';
export * from './measure.js';
export * from './baseline.js';
export * from './plan.js';
export * from './result.js';
export * from './check-result.js';
export * from './missing.js';

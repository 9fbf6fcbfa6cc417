/**
 * The scope derived from use (issue 38.3): the tools this project's (and this user's) calls used before are the
 * ones it most likely wants again. After every other check, each of the best candidates in the scope gains up to
 * SCOPE_SHARE of the best score, by its weight in the scope (session/scope.ts scopePrior: log-damped, relative to
 * the most used) — the `scope` reason of --explain. Only candidates move: a tool the intent does not match at all
 * is not pulled in. Without a scope (no project data) the check does not apply and rankings are as before.
 */
import type { Check } from './check.js';
import { bestScore, shiftScores } from '../per-tool.js';

/**
 * Share of the best candidate's score the most used tool of the scope gains (chosen on LiveMCPBench's categories
 * as projects among 0.1, 0.2, 0.3 and 0.5: bench/scope.mjs, bench/RESULTS.md "Scope from use").
 */
export const SCOPE_SHARE = 0.3;

export const projectScopeCheck: Check = {
  name: 'project-scope',
  reason: 'scope',
  doc: "a tool this project's (and this user's) calls used before gains up to 30 % of the best score, by how much it was used (the scope derived from use)",
  stage: 'reranked',
  pool: 'top',
  reads: ['name', 'server'],
  applies: (c) => c.scope !== undefined && c.scope.size > 0,
  shift: (c, pool) => {
    const scope = c.scope!;
    const cands = pool();
    const top = bestScore(c.scores, cands);
    if (!(top > 0)) return null;
    return shiftScores(c.scores, cands, (c.scopeShare ?? SCOPE_SHARE) * top, (i) => scope.get(i) ?? 0);
  },
};

// bench/helpers/folds.mjs: the leave-servers-out folds of bench/generalise.mjs (issue 37). A fold must hold every
// server an intent expects, and the same input must give the same folds.
import { describe, expect, it } from 'vitest';
import { serverFolds } from '../../bench/helpers/folds.mjs';

const servers = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'quiet'];
const cases = [
  { expected: ['alpha.read'] },
  { expected: ['alpha.write'] },
  { expected: ['beta.list', 'gamma.list'] },
  { expected: ['gamma.get'] },
  { expected: ['delta.send'] },
  { expected: ['epsilon.find'] },
  { expected: ['zeta.open', 'epsilon.open'] },
];

describe('serverFolds', () => {
  it('puts the servers one intent expects in one fold, and each intent in its servers fold', () => {
    const { fold, caseFold } = serverFolds(servers, cases, 3);
    expect(fold.get('beta')).toBe(fold.get('gamma'));
    expect(fold.get('zeta')).toBe(fold.get('epsilon'));
    for (const c of cases) for (const id of c.expected) expect(caseFold(c)).toBe(fold.get(id.split('.')[0]!));
  });

  it('deals the groups to the fold with the fewest intents, largest group first', () => {
    const { caseFold } = serverFolds(servers, cases, 3);
    const sizes = [0, 1, 2].map((f) => cases.filter((c) => caseFold(c) === f).length);
    // Groups: beta+gamma 2, epsilon+zeta 2, alpha 2, delta 1 → three folds of 2, 2, 3 intents.
    expect(sizes.sort()).toEqual([2, 2, 3]);
  });

  it('gives a server no intent names a fold from its name, the same on every call', () => {
    const a = serverFolds(servers, cases, 3);
    const b = serverFolds([...servers].reverse(), [...cases].reverse(), 3);
    expect(a.fold.get('quiet')).toBeGreaterThanOrEqual(0);
    expect(a.fold.get('quiet')).toBeLessThan(3);
    expect([...b.fold].sort()).toEqual([...a.fold].sort());
  });
});

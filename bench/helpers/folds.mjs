// Leave-servers-out folds of the servers-111 catalogue (issue 37): servers that some intent's labels join (an intent
// expecting tools of two servers) fall in one fold, so that no intent's expected tools are split between a fold and
// the others; the groups go, most intents first, to the fold with the fewest intents so far; servers no intent
// names go by a hash of their name. Deterministic: the same folds on every run and machine.
import { createHash } from 'node:crypto';

/** Map server → fold (0..k-1) and each case's fold, for cases whose labels are `<server>.<tool>` ids. */
export function serverFolds(servers, cases, k) {
  const parent = new Map(servers.map((s) => [s, s]));
  const find = (s) => {
    while (parent.get(s) !== s) s = parent.get(s);
    return s;
  };
  const serverOf = (id) => id.slice(0, id.indexOf('.'));
  for (const c of cases) {
    const [first, ...rest] = c.expected.map(serverOf);
    for (const s of rest) parent.set(find(s), find(first));
  }
  const groups = new Map();
  for (const c of cases) {
    const root = find(serverOf(c.expected[0]));
    groups.set(root, (groups.get(root) ?? 0) + 1);
  }
  const load = new Array(k).fill(0);
  const foldOfRoot = new Map();
  for (const [root, n] of [...groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    const f = load.indexOf(Math.min(...load));
    foldOfRoot.set(root, f);
    load[f] += n;
  }
  const fold = new Map();
  for (const s of servers) {
    const root = find(s);
    fold.set(s, foldOfRoot.get(root) ?? createHash('sha1').update(s).digest()[0] % k);
  }
  return { fold, caseFold: (c) => fold.get(serverOf(c.expected[0])) };
}

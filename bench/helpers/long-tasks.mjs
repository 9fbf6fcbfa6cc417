// A MetaTool proxy for LiveMCPBench-like long multi-step tasks: 2–4 consecutive queries of one split (distinct
// tools) phrased as one instruction; gold = their tools. Deterministic (no randomness: the shape cycles by index).
const OPENERS = ['', 'I need to do a few things. ', 'Help me with this task: ', 'Please '];
const LINKS = [
  [', then ', ', and finally '],
  ['. After that, ', '. Finally, '],
  [' and ', ', and lastly '],
  ['; next, ', '; at the end, '],
];

const lower = (s) => s.charAt(0).toLowerCase() + s.slice(1);

export function longTasks(cases, max = 1500) {
  const out = [];
  let i = 0;
  for (let t = 0; i < cases.length && out.length < max; t++) {
    const k = 2 + (t % 3);
    const group = cases.slice(i, i + k);
    i += k;
    if (group.length < k) break;
    const expected = [...new Set(group.map((c) => c.expected[0]))];
    if (expected.length < k) continue;
    const [mid, last] = LINKS[t % LINKS.length];
    const parts = group.map((c) => c.intent.trim().replace(/[.?!]+$/, ''));
    let text = OPENERS[t % OPENERS.length] + (t % OPENERS.length === 3 ? lower(parts[0]) : parts[0]);
    for (let j = 1; j < k; j++) text += (j === k - 1 ? last : mid) + lower(parts[j]);
    out.push({ intent: `${text}.`, expected });
  }
  return out;
}

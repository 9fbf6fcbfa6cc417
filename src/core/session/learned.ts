/**
 * What a usage store remembers of the cases `replay --learn` learned (its `sessions` map), and which calls of the
 * replayed cases it has not learned yet. Keys are hashes of the session id and the turn key (turn-keys.ts): a team
 * store holds no local path, and a session read through another path, link or copy is the same session.
 *
 * - `<session>:<turn>` → n: the turn's first n calls are learned (calls are only ever appended to a turn);
 * - `<session>:<turn>/<call>` → 1: that call is learned, past a call not learned (to a tool not loaded then);
 * - anything else is an older store's entry, `<session id>` → n: the session's first n cases are learned.
 */
import { createHash } from 'node:crypto';
import type { ReplayCase } from './cases.js';

const hex = (text: string, length: number): string => createHash('sha256').update(text).digest('hex').slice(0, length);

const KEY = /^([0-9a-f]{16}):[0-9a-f]{12}(?:\/[0-9a-f]{8})?$/;

/** The store's name for a session: a hash of its id. */
export const sessionStoreKey = (sessionId: string): string => hex(`mcp-smart session\u0000${sessionId}`, 16);

const caseKeyOf = (c: ReplayCase): string => `${sessionStoreKey(c.sessionId)}:${hex(c.key ?? String(c.line), 12)}`;
const callKeyOf = (caseKey: string, key: string): string => `${caseKey}/${hex(key, 8)}`;

/** Sessions a store's `sessions` map names: hashed (sessionStoreKey) or, from an older store, as recorded. */
export function learnedSessions(known: Readonly<Record<string, number>>): Set<string> {
  const out = new Set<string>();
  for (const [key, n] of Object.entries(known)) {
    if (!(n > 0)) continue;
    out.add(KEY.exec(key)?.[1] ?? key);
  }
  return out;
}

/** Whether a store has learned anything of the session: its hashed key or, from an older store, its id or file. */
export function hasLearnedSession(sessions: Set<string>, c: Pick<ReplayCase, 'sessionId' | 'file'>): boolean {
  return sessions.has(sessionStoreKey(c.sessionId)) || sessions.has(c.sessionId) || sessions.has(c.file);
}

export interface UnlearnedCases {
  /** The cases with calls to learn now, each holding only those calls. */
  cases: ReplayCase[];
  /** What to add to the store's `sessions` map once they are learned. */
  keys: Record<string, number>;
  /** Cases with calls learned now. */
  fresh: number;
  /** Cases the store had learned whole. */
  already: number;
  /** Cases with nothing to learn now, but calls to tools not loaded: a later run learns them. */
  pending: number;
}

/** The calls of `cases` a store whose `sessions` map is `known` has not learned and that can be learned now. */
export function unlearnedCases(cases: readonly ReplayCase[], known: Readonly<Record<string, number>>): UnlearnedCases {
  const out: UnlearnedCases = { cases: [], keys: {}, fresh: 0, already: 0, pending: 0 };
  // An older store counted each session's cases in this order (cases are sorted).
  const nth = new Map<string, number>();
  for (const c of cases) {
    const n = (nth.get(c.sessionId) ?? 0) + 1;
    nth.set(c.sessionId, n);
    const legacy = Math.max(known[c.sessionId] ?? 0, c.file !== c.sessionId ? (known[c.file] ?? 0) : 0);
    if (n <= legacy) {
      out.already++;
      continue;
    }
    const caseKey = caseKeyOf(c);
    const prefix = known[caseKey] ?? 0;
    const callKeys = c.calls.map((call, i) => callKeyOf(caseKey, call.key ?? String(i)));
    const before = c.calls.map((_, i) => i < prefix || (known[callKeys[i]!] ?? 0) > 0);
    const now = c.calls.map((call, i) => !before[i] && call.unresolved !== true);
    if (!now.includes(true)) {
      if (before.every(Boolean)) out.already++;
      else out.pending++;
      continue;
    }
    out.fresh++;
    out.cases.push({ ...c, calls: c.calls.filter((_, i) => now[i]) });
    const learned = c.calls.map((_, i) => before[i]! || now[i]!);
    const upTo = learned.indexOf(false);
    const newPrefix = upTo === -1 ? learned.length : upTo;
    if (newPrefix > prefix) out.keys[caseKey] = newPrefix;
    now.forEach((yes, i) => {
      if (yes && i >= newPrefix) out.keys[callKeys[i]!] = 1;
    });
  }
  return out;
}

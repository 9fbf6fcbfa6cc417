/**
 * What names a turn and a call in its session whatever file holds it, so that one session found in several files
 * (a copy, a backup, a resumed transcript) is replayed once, and a usage store knows which calls it has learned.
 */
import type { RecordedSession } from './model.js';

/**
 * Gives every turn and call of `session` a key unique in the session: a reader's own (Claude Code's tool_use id
 * for a call), else the turn's first call's, else its time and text; calls without one are numbered in their turn.
 * Mutates the session.
 */
export function keyTurns(session: RecordedSession): void {
  const turnKeys = new Set<string>();
  for (const turn of session.turns) {
    const base =
      turn.key ?? turn.calls.find((c) => c.key !== undefined)?.key ?? `${turn.time ?? ''}\u0000${turn.intent}`;
    turn.key = unique(base, turnKeys);
    const callKeys = new Set<string>();
    turn.calls.forEach((call, i) => (call.key = unique(call.key ?? `${turn.key}.${i}`, callKeys)));
  }
}

function unique(key: string, taken: Set<string>): string {
  let out = key;
  for (let n = 2; taken.has(out); n++) out = `${key}#${n}`;
  taken.add(out);
  return out;
}

export interface MergedSessions {
  sessions: RecordedSession[];
  /** Sessions found in more than one file, with those files (first reader's first). */
  copies: { id: string; files: string[] }[];
}

/**
 * One session per format and id: the turns of a later copy join the first copy's unless it holds them already
 * (same key); a turn both hold gains the calls only the later one recorded (a copy taken mid-turn). Sessions are
 * keyed (keyTurns) first. The first copy's object is kept and extended.
 */
export function mergeSessionCopies(sessions: RecordedSession[]): MergedSessions {
  const byId = new Map<string, { session: RecordedSession; files: string[] }>();
  const out: RecordedSession[] = [];
  for (const s of sessions) {
    keyTurns(s);
    const id = `${s.format}\u0000${s.id}`;
    const first = byId.get(id);
    if (!first) {
      byId.set(id, { session: s, files: [s.file] });
      out.push(s);
      continue;
    }
    if (!first.files.includes(s.file)) first.files.push(s.file);
    const turns = new Map(first.session.turns.map((t) => [t.key!, t]));
    for (const turn of s.turns) {
      const held = turns.get(turn.key!);
      if (!held) {
        first.session.turns.push(turn);
        turns.set(turn.key!, turn);
        continue;
      }
      const calls = new Set(held.calls.map((c) => c.key));
      for (const call of turn.calls) if (!calls.has(call.key)) held.calls.push(call);
    }
    if (first.session.cwd === undefined && s.cwd !== undefined) first.session.cwd = s.cwd;
  }
  const copies = [...byId.values()]
    .filter((e) => e.files.length > 1)
    .map((e) => ({ id: e.session.id, files: e.files }));
  return { sessions: out, copies };
}

/** Turns recorded sessions into replay cases: one per user turn that led to MCP tool calls. */
import type { RecordedCall, RecordedSession } from './model.js';

export interface CaseCall {
  /** `server.tool`, with the server named as in the loaded tool set when it could be matched. */
  id: string;
  /** The server part of `id` (server names may themselves hold dots); set by buildCases. */
  server?: string;
  ok: boolean;
  /** False when the result was not recorded (counted as a success). */
  known: boolean;
  latencyMs?: number;
  /**
   * The recorded name matched no loaded tool, or more than one (`mcp__a__b__c` is `a`/`b__c` and `a__b`/`c`):
   * scored as a miss, never learned, since the usage would be credited to a tool nobody called.
   */
  unresolved?: true;
  /** The recorded call's key in its session (RecordedCall.key): what a usage store remembers as learned. */
  key?: string;
}

export interface ReplayCase {
  /** `<session>#<n>`, n counting the session's cases from 1. */
  id: string;
  sessionId: string;
  file: string;
  line: number;
  intent: string;
  /** Ms since the epoch; 0 when the recording has no times (its order in the file then decides). */
  time: number;
  /** Distinct tool ids in the order first called: what the agent needed for this intent. */
  expected: string[];
  calls: CaseCall[];
  /** Every call succeeded (or had no recorded result). */
  success: boolean;
  /** The turn's key in its session (RecordedTurn.key): what a usage store remembers as learned. */
  key?: string;
}

export interface CaseSet {
  cases: ReplayCase[];
  /** Tool ids called in the recordings but missing from the loaded tool set, sorted. */
  unknownTools: string[];
  /** Calls to those tools. */
  unknownCalls: number;
  /** Tool ids called in the recordings that the visibility rules hide from the model (buildCases' `hidden`), sorted. */
  hiddenTools: string[];
  /** Calls to those tools: scored as misses and not learned, as calls to unknown tools are. */
  hiddenCalls: number;
  /** Recorded names that match more than one loaded tool, each with the ids it could be; sorted. */
  ambiguous: { name: string; ids: string[] }[];
  /** User turns that called no MCP tool (nothing to score). */
  turnsWithoutCalls: number;
}

export interface KnownTool {
  id: string;
  server: string;
  tool: string;
}

/** Claude Code rewrites server names to [a-zA-Z0-9_-] in tool names; compare on that form. */
export const normalizeServerName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_');

type Resolved = { id: string; server: string; known: boolean; ambiguous?: string[] };

function makeResolver(known: KnownTool[] | undefined): (call: RecordedCall) => Resolved {
  const exact = new Map<string, KnownTool>();
  const loose = new Map<string, KnownTool>();
  for (const t of known ?? []) {
    exact.set(`${t.server}\u0000${t.tool}`, t);
    const key = `${normalizeServerName(t.server)}\u0000${t.tool}`;
    if (!loose.has(key)) loose.set(key, t);
  }
  return (call) => {
    const readings = [{ server: call.server, tool: call.tool }, ...(call.alternatives ?? [])];
    const matches = new Map<string, KnownTool>();
    for (const r of readings) {
      const t = exact.get(`${r.server}\u0000${r.tool}`) ?? loose.get(`${normalizeServerName(r.server)}\u0000${r.tool}`);
      if (t !== undefined) matches.set(t.id, t);
    }
    const [only, ...others] = [...matches.values()];
    if (only !== undefined && others.length === 0) return { id: only.id, server: only.server, known: true };
    const id = `${call.server}.${call.tool}`;
    if (only !== undefined) return { id, server: call.server, known: false, ambiguous: [...matches.keys()].sort(cmp) };
    return { id, server: call.server, known: known === undefined };
  };
}

/**
 * Cases from sessions, sorted by time, then session, then position. With `known`, recorded names are
 * matched to the loaded tools (Claude Code's normalised server names included); unmatched tools are listed.
 * A name that matches none of `known` but one of `hidden` (loaded, but hidden from the model) is listed apart.
 */
export function buildCases(sessions: RecordedSession[], known?: KnownTool[], hidden: KnownTool[] = []): CaseSet {
  const resolveShown = makeResolver(known);
  const resolveHidden = makeResolver(hidden);
  const resolve = (c: RecordedCall): Resolved & { hidden?: true } => {
    const r = resolveShown(c);
    if (r.known || r.ambiguous || hidden.length === 0) return r;
    const h = resolveHidden(c);
    return h.known ? { id: h.id, server: h.server, known: false, hidden: true } : r;
  };
  const cases: ReplayCase[] = [];
  const unknown = new Set<string>();
  const hiddenIds = new Set<string>();
  const ambiguous = new Map<string, string[]>();
  let unknownCalls = 0;
  let hiddenCalls = 0;
  let turnsWithoutCalls = 0;
  for (const s of sessions) {
    let n = 0;
    for (const turn of s.turns) {
      if (turn.calls.length === 0) {
        turnsWithoutCalls++;
        continue;
      }
      const calls: CaseCall[] = turn.calls.map((c) => {
        const r = resolve(c);
        if (r.ambiguous) ambiguous.set(c.rawName ?? r.id, r.ambiguous);
        else if (r.hidden) {
          hiddenIds.add(r.id);
          hiddenCalls++;
        } else if (!r.known) {
          unknown.add(r.id);
          unknownCalls++;
        }
        const call: CaseCall = { id: r.id, server: r.server, ok: c.ok !== false, known: c.ok !== undefined };
        if (!r.known) call.unresolved = true;
        if (c.latencyMs !== undefined) call.latencyMs = c.latencyMs;
        if (c.key !== undefined) call.key = c.key;
        return call;
      });
      const expected = [...new Set(calls.map((c) => c.id))];
      n++;
      cases.push({
        id: `${s.id}#${n}`,
        sessionId: s.id,
        file: s.file,
        line: turn.line,
        intent: turn.intent,
        time: turn.time ?? 0,
        expected,
        calls,
        success: calls.every((c) => c.ok),
        ...(turn.key === undefined ? {} : { key: turn.key }),
      });
    }
  }
  cases.sort((a, b) => a.time - b.time || cmp(a.sessionId, b.sessionId) || a.line - b.line);
  return {
    cases,
    unknownTools: [...unknown].sort(cmp),
    unknownCalls,
    hiddenTools: [...hiddenIds].sort(cmp),
    hiddenCalls,
    ambiguous: [...ambiguous].map(([name, ids]) => ({ name, ids })).sort((a, b) => cmp(a.name, b.name)),
    turnsWithoutCalls,
  };
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

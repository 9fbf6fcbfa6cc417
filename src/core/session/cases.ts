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
}

export interface CaseSet {
  cases: ReplayCase[];
  /** Tool ids called in the recordings but missing from the loaded tool set, sorted. */
  unknownTools: string[];
  /** Calls to those tools. */
  unknownCalls: number;
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

function makeResolver(
  known: KnownTool[] | undefined,
): (call: RecordedCall) => { id: string; server: string; known: boolean } {
  const exact = new Map<string, KnownTool>();
  const loose = new Map<string, KnownTool>();
  for (const t of known ?? []) {
    exact.set(`${t.server}\u0000${t.tool}`, t);
    const key = `${normalizeServerName(t.server)}\u0000${t.tool}`;
    if (!loose.has(key)) loose.set(key, t);
  }
  return (call) => {
    const readings = [{ server: call.server, tool: call.tool }, ...(call.alternatives ?? [])];
    for (const r of readings) {
      const t = exact.get(`${r.server}\u0000${r.tool}`) ?? loose.get(`${normalizeServerName(r.server)}\u0000${r.tool}`);
      if (t !== undefined) return { id: t.id, server: t.server, known: true };
    }
    return { id: `${call.server}.${call.tool}`, server: call.server, known: known === undefined };
  };
}

/**
 * Cases from sessions, sorted by time, then session, then position. With `known`, recorded names are
 * matched to the loaded tools (Claude Code's normalised server names included); unmatched tools are listed.
 */
export function buildCases(sessions: RecordedSession[], known?: KnownTool[]): CaseSet {
  const resolve = makeResolver(known);
  const cases: ReplayCase[] = [];
  const unknown = new Set<string>();
  let unknownCalls = 0;
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
        if (!r.known) {
          unknown.add(r.id);
          unknownCalls++;
        }
        const call: CaseCall = { id: r.id, server: r.server, ok: c.ok !== false, known: c.ok !== undefined };
        if (c.latencyMs !== undefined) call.latencyMs = c.latencyMs;
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
      });
    }
  }
  cases.sort((a, b) => a.time - b.time || cmp(a.sessionId, b.sessionId) || a.line - b.line);
  return { cases, unknownTools: [...unknown].sort(cmp), unknownCalls, turnsWithoutCalls };
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The data a recording is read into: sessions of user turns, each with the MCP tool calls that followed it. */

export type SessionFormat = 'claude-code' | 'cline' | 'intents';

/** One MCP tool call as recorded. `ok` is undefined when no result was recorded. */
export interface RecordedCall {
  server: string;
  tool: string;
  /** The name as it appeared in the recording (e.g. `mcp__filesystem__read_text_file`). */
  rawName?: string;
  /** Other server/tool readings of an ambiguous raw name, tried when the first is unknown. */
  alternatives?: { server: string; tool: string }[];
  ok?: boolean;
  error?: string;
  /** Milliseconds between the call and its result, when both carry timestamps. */
  latencyMs?: number;
  /** What names this call in its session in every copy of the recording (Claude Code's tool_use id); see turn-keys.ts. */
  key?: string;
}

/** A user turn: the text is the intent; the calls are what the agent needed for it. */
export interface RecordedTurn {
  intent: string;
  /** Ms since the epoch, when known. */
  time?: number;
  /** 1-based line (JSONL) or message index (JSON) where the turn starts. */
  line: number;
  calls: RecordedCall[];
  /** What names this turn in its session in every copy of the recording, unique in the session (turn-keys.ts). */
  key?: string;
}

export interface RecordedSession {
  id: string;
  file: string;
  format: SessionFormat;
  turns: RecordedTurn[];
  /** The directory the session ran in, as recorded (Claude Code's `cwd`, an intents line's `cwd`): its project. */
  cwd?: string;
}

/** A malformed line or block, skipped and reported. */
export interface ReadProblem {
  file: string;
  line: number;
  message: string;
}

export interface ReadResult {
  sessions: RecordedSession[];
  problems: ReadProblem[];
  /** MCP tool calls before any user turn of their session (no intent to score them against); absent when none. */
  callsWithoutTurn?: number;
}

export { isObject as isRecord } from '../dict.js';

/** Parses an ISO time or epoch number into ms; undefined when absent or invalid. */
export function parseTime(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v !== '') {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/**
 * Dates each undated turn of `session` like its nearest dated turn (the one before it, else the first after it):
 * the turn happened between its neighbours, whereas "unknown" used to become "now" when learning, which moved the
 * store's retention reference past every real recording. Returns the turns dated so (none when the session has no
 * dated turn at all: those keep no time).
 */
export function dateUndatedTurns(session: RecordedSession): RecordedTurn[] {
  const firstDated = session.turns.find((t) => t.time !== undefined)?.time;
  if (firstDated === undefined) return [];
  const dated: RecordedTurn[] = [];
  let last = firstDated;
  for (const turn of session.turns) {
    if (turn.time !== undefined) last = turn.time;
    else {
      turn.time = last;
      dated.push(turn);
    }
  }
  return dated;
}

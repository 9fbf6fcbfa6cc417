/** Labelled intents (`.jsonl`): `{"intent": "...", "expected": ["server.tool", ...]}` per line. */
import {
  isRecord,
  parseTime,
  type ReadProblem,
  type ReadResult,
  type RecordedCall,
  type RecordedSession,
} from '../model.js';

/** Server and tool of a `server.tool` id; every other dot position is kept as an alternative reading. */
export function splitToolId(
  id: string,
): { server: string; tool: string; alternatives: { server: string; tool: string }[] } | undefined {
  const splits: { server: string; tool: string }[] = [];
  for (let i = id.indexOf('.'); i !== -1; i = id.indexOf('.', i + 1)) {
    const server = id.slice(0, i);
    const tool = id.slice(i + 1);
    if (server !== '' && tool !== '') splits.push({ server, tool });
  }
  const [first, ...alternatives] = splits;
  return first ? { ...first, alternatives } : undefined;
}

/**
 * Reads labelled intents. Optional `session` (groups lines for cross-validation; default: `fileSession`, the file)
 * and `time` fields order them. Labelled tools count as successful calls.
 */
export function readIntents(text: string, file: string, fileSession: string = file): ReadResult {
  const problems: ReadProblem[] = [];
  const sessions = new Map<string, RecordedSession>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '' || raw.startsWith('//')) continue;
    const line = i + 1;
    const problem = (message: string): void => void problems.push({ file, line, message });
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      problem('not valid JSON');
      continue;
    }
    if (!isRecord(row) || typeof row.intent !== 'string' || row.intent.trim() === '') {
      problem('expected {"intent": "...", "expected": [...]}');
      continue;
    }
    if (!Array.isArray(row.expected) || !row.expected.every((e) => typeof e === 'string')) {
      problem('"expected" must be a list of "server.tool" ids');
      continue;
    }
    // Nothing to find is nothing to score: the line was left out of the count without a word (as discover's reader says).
    if (row.expected.length === 0) {
      problem('"expected" is empty; name the tool(s) this intent should find');
      continue;
    }
    const calls: RecordedCall[] = [];
    let bad: string | undefined;
    for (const e of row.expected) {
      const parsed = splitToolId(e);
      if (!parsed) {
        bad = e;
        break;
      }
      const call: RecordedCall = { server: parsed.server, tool: parsed.tool, rawName: e, ok: true };
      if (parsed.alternatives.length > 0) call.alternatives = parsed.alternatives;
      calls.push(call);
    }
    if (bad !== undefined) {
      problem(`"${bad}" is not a "server.tool" id`);
      continue;
    }
    const sessionId = typeof row.session === 'string' && row.session !== '' ? row.session : fileSession;
    let session = sessions.get(sessionId);
    if (!session) {
      session = { id: sessionId, file, format: 'intents', turns: [] };
      sessions.set(sessionId, session);
    }
    if (session.cwd === undefined && typeof row.cwd === 'string' && row.cwd !== '') session.cwd = row.cwd;
    const time = parseTime(row.time);
    // The line's content names the turn (turn-keys.ts): lines added or moved later leave it the same turn.
    const key = `${row.intent.trim()}\u0000${row.expected.join('\u0000')}\u0000${time ?? ''}`;
    session.turns.push({ intent: row.intent.trim(), line, calls, key, ...(time === undefined ? {} : { time }) });
  }
  return { sessions: [...sessions.values()], problems };
}

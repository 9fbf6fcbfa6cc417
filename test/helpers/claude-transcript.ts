// Claude Code transcript lines for replay tests: a user turn and the MCP call it led to, as `~/.claude/projects`
// holds them (one JSON event per line).

/** The lines of a `.jsonl` file: one JSON value each, newline-terminated. */
export const jsonl = (...rows: unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** One transcript event of `sessionId`. */
export const ev = (type: string, sessionId: string, content: unknown, timestamp: string) => ({
  type,
  sessionId,
  timestamp,
  message: { role: type, content },
});

/** A user turn and one MCP call (`mcp__<server>__<tool>`) with its result, on March `day` 2025. */
export const turn = (sid: string, n: number, text: string, name: string, day = 1) => {
  const t = `2025-03-${String(day).padStart(2, '0')}T00:0${n}:00.000Z`;
  return [
    ev('user', sid, text, t),
    ev('assistant', sid, [{ type: 'tool_use', id: `tu_${sid}_${n}`, name, input: {} }], t),
    ev('user', sid, [{ type: 'tool_result', tool_use_id: `tu_${sid}_${n}`, content: 'ok' }], t),
  ];
};

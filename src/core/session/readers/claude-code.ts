/** Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`): one JSON event per line. */
import {
  isRecord,
  parseTime,
  type ReadProblem,
  type ReadResult,
  type RecordedCall,
  type RecordedSession,
  type RecordedTurn,
} from '../model.js';

/**
 * Server and tool of an `mcp__<server>__<tool>` name. Claude Code splits at the first `__` after the prefix,
 * so that reading comes first; the other `__` positions are kept as alternatives for servers whose
 * (normalised) name itself contains `__`. Undefined when the name is not an MCP tool name.
 */
export function parseMcpToolName(
  name: string,
): { server: string; tool: string; alternatives: { server: string; tool: string }[] } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice('mcp__'.length);
  const splits: { server: string; tool: string }[] = [];
  for (let i = rest.indexOf('__'); i !== -1; i = rest.indexOf('__', i + 1)) {
    const server = rest.slice(0, i);
    const tool = rest.slice(i + 2);
    if (server !== '' && tool !== '') splits.push({ server, tool });
  }
  const [first, ...alternatives] = splits;
  return first ? { ...first, alternatives } : undefined;
}

/** User text that Claude Code writes itself (slash commands, their output, interruptions) rather than the user. */
const GENERATED_TEXT = new RegExp(
  String.raw`^\s*(<command-name>|<command-message>|<local-command-caveat>|<local-command-stdout>|<local-command-stderr>` +
    String.raw`|<bash-input>|<bash-stdout>|<bash-stderr>|<user-memory-input>|\[Request interrupted|Caveat: The messages below)`,
);

/** Context Claude Code appends to what the user typed (open files, hook output): not part of the intent. */
const SYSTEM_REMINDER = /<system-reminder>[\s\S]*?(<\/system-reminder>|$)/g;

/**
 * Content block types of the Anthropic Messages API that Claude Code writes into transcripts. Anything else is
 * reported (with its line), so a format change shows instead of silently dropping calls.
 */
const KNOWN_BLOCK_TYPES = new Set([
  'text',
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'image',
  'document',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
]);

interface Pending {
  call: RecordedCall;
  time?: number;
}

/** Reads one transcript. Malformed lines are reported and skipped. */
export function readClaudeCodeTranscript(text: string, file: string): ReadResult {
  const problems: ReadProblem[] = [];
  const sessions = new Map<string, RecordedSession>();
  const pending = new Map<string, Pending>();
  const seenToolUse = new Set<string>();
  // The turn in progress per session: one file may interleave the lines of several sessions (resumed or
  // concurrent ones), and a call belongs to its own session's latest user turn.
  const turns = new Map<string, RecordedTurn>();
  let callsWithoutTurn = 0;
  const fallbackId = file.replace(/^.*[\\/]/, '').replace(/\.jsonl?$/, '');

  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    const lineNo = i + 1;
    const problem = (message: string): void => void problems.push({ file, line: lineNo, message });
    let event: unknown;
    try {
      event = JSON.parse(raw);
    } catch {
      problem('not valid JSON');
      continue;
    }
    if (!isRecord(event)) {
      problem('not a JSON object');
      continue;
    }
    if (event.type !== 'user' && event.type !== 'assistant') continue; // summary, system, snapshots …
    const message = event.message;
    if (!isRecord(message) || (typeof message.content !== 'string' && !Array.isArray(message.content))) {
      problem(`"${event.type}" line without message.content`);
      continue;
    }
    const time = parseTime(event.timestamp);
    const sessionId = typeof event.sessionId === 'string' && event.sessionId !== '' ? event.sessionId : fallbackId;
    const blocks: unknown[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    for (const block of blocks) {
      if (isRecord(block) && typeof block.type === 'string' && !KNOWN_BLOCK_TYPES.has(block.type))
        problem(`content block of unknown type "${block.type.slice(0, 40)}" (skipped)`);
    }

    if (event.type === 'user') {
      const texts: string[] = [];
      for (const block of blocks) {
        if (!isRecord(block)) continue;
        if (block.type === 'tool_result') {
          const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
          const p = pending.get(id);
          if (!p) continue; // result of a built-in tool, or of a call on a line we skipped
          pending.delete(id);
          p.call.ok = block.is_error !== true;
          if (block.is_error === true) p.call.error = resultText(block.content).slice(0, 200);
          if (p.time !== undefined && time !== undefined && time >= p.time) p.call.latencyMs = time - p.time;
        } else if (block.type === 'text' && typeof block.text === 'string') {
          texts.push(block.text.replace(SYSTEM_REMINDER, ''));
        }
      }
      // Sub-agent prompts (sidechains), meta lines and the model's /compact summary are not the user's words;
      // calls after a compaction still serve the turn that was in progress.
      if (
        event.isSidechain === true ||
        event.isMeta === true ||
        event.isCompactSummary === true ||
        event.isVisibleInTranscriptOnly === true
      )
        continue;
      const intent = texts
        .filter((t) => !GENERATED_TEXT.test(t))
        .join('\n')
        .trim();
      if (intent === '') continue;
      let session = sessions.get(sessionId);
      if (!session) {
        session = { id: sessionId, file, format: 'claude-code', turns: [] };
        sessions.set(sessionId, session);
      }
      // The project of the scope derived from use (session/scope.ts): the first directory the session names.
      if (session.cwd === undefined && typeof event.cwd === 'string' && event.cwd !== '') session.cwd = event.cwd;
      const turn: RecordedTurn = { intent, line: lineNo, calls: [] };
      if (time !== undefined) turn.time = time;
      session.turns.push(turn);
      turns.set(sessionId, turn);
      continue;
    }

    for (const block of blocks) {
      if (!isRecord(block) || block.type !== 'tool_use') continue;
      if (typeof block.name !== 'string' || block.name === '') {
        problem('tool_use block without a name');
        continue;
      }
      if (!block.name.startsWith('mcp__')) continue;
      const parsed = parseMcpToolName(block.name);
      if (!parsed) {
        problem(`tool_use name "${block.name}" is not of the form mcp__<server>__<tool>`);
        continue;
      }
      const id = typeof block.id === 'string' ? block.id : '';
      if (id !== '' && seenToolUse.has(id)) continue; // streamed message repeated across lines
      if (id !== '') seenToolUse.add(id);
      const turn = turns.get(sessionId);
      if (!turn) {
        callsWithoutTurn++; // no intent to score them against: counted, said in the summary
        continue;
      }
      const call: RecordedCall = { server: parsed.server, tool: parsed.tool, rawName: block.name };
      if (parsed.alternatives.length > 0) call.alternatives = parsed.alternatives;
      if (id !== '') call.key = id;
      turn.calls.push(call);
      if (id !== '') pending.set(id, time === undefined ? { call } : { call, time });
    }
  }
  return { sessions: [...sessions.values()], problems, ...(callsWithoutTurn > 0 ? { callsWithoutTurn } : {}) };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((c) => (isRecord(c) && typeof c.text === 'string' ? c.text : ''))
      .filter((t) => t !== '')
      .join('\n');
  }
  return '';
}

/** Cline / Roo Code task histories (`tasks/<taskId>/api_conversation_history.json`). */
import { parseTree } from 'jsonc-parser';
import {
  isRecord,
  parseTime,
  type ReadProblem,
  type ReadResult,
  type RecordedCall,
  type RecordedTurn,
} from '../model.js';
import { parseAssistantText } from './xml-tools.js';

/** Server and tool names never hold whitespace or markup; text that does is prose caught between tags. */
const NAME = /^[^\s<>]{1,200}$/;

export interface ClineReadOptions {
  /** Session id; defaults to the task folder name or the file name. */
  sessionId?: string;
  /** Time of the task's first message (Cline names task folders after it), for ordering. */
  baseTime?: number;
}

/** Text Cline wraps around what the user typed: a new task, feedback, or a follow-up message. */
const USER_TAGS = ['task', 'feedback', 'user_message'] as const;
const RESULT_HEADER = /\[([\w-]+)(?: for '([^']*)')?\] Result:/g;
const ERROR_RESULT = new RegExp(
  /^\s*Error:|The tool execution failed with the following error|<error>/.source +
    /|The user denied this operation|Missing value for required parameter|<status>\s*error\s*<\/status>/.source,
);

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

function textsOf(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text);
}

function tagContents(text: string, tag: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${tag}>([\\s\\S]*?)(?:</${tag}>|$)`, 'g');
  for (const m of text.matchAll(re)) if (m[1]!.trim() !== '') out.push(m[1]!.trim());
  return out;
}

/** Reads one task history. Malformed messages and tool blocks are reported (with their line) and skipped. */
export function readClineHistory(text: string, file: string, opts: ClineReadOptions = {}): ReadResult {
  const problems: ReadProblem[] = [];
  const id =
    opts.sessionId ?? (file.replace(/[\\/]api_conversation_history\.json$/, '').replace(/^.*[\\/]/, '') || file);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    problems.push({ file, line: 1, message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` });
    return { sessions: [], problems };
  }
  if (!Array.isArray(doc)) {
    problems.push({ file, line: 1, message: 'expected an array of messages' });
    return { sessions: [], problems };
  }
  const starts = lineStarts(text);
  const offsets = parseTree(text)?.children?.map((n) => n.offset) ?? [];
  const turns: RecordedTurn[] = [];
  let turn: RecordedTurn | undefined;
  /** Calls still waiting for their result, oldest first. */
  let pending: RecordedCall[] = [];
  const byToolUseId = new Map<string, RecordedCall>();
  let callsWithoutTurn = 0;

  doc.forEach((message: unknown, index) => {
    const line = lineOf(starts, offsets[index] ?? 0);
    const problem = (m: string): void => void problems.push({ file, line, message: `message ${index + 1}: ${m}` });
    if (!isRecord(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      problem('not a {role, content} message');
      return;
    }
    if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
      problem('content is neither text nor a list of blocks');
      return;
    }
    const time = parseTime(message.ts) ?? (opts.baseTime !== undefined ? opts.baseTime + index : undefined);

    if (message.role === 'assistant') {
      // A call is named by its message and place in it (turn-keys.ts): a history only grows at its end.
      let nth = 0;
      const key = (): string => `${index}.${nth++}`;
      for (const t of textsOf(message.content)) {
        for (const c of parseAssistantText(t).calls) {
          // A block without its closing tag was cut off (e.g. "[Response interrupted by a tool use result …]"):
          // whatever follows the open tags is prose, not a name, so it is never a call.
          if (c.partial) {
            problem('<use_mcp_tool> block cut off before </use_mcp_tool> (not counted as a call)');
            continue;
          }
          if (!c.server || !c.tool) {
            problem(`<use_mcp_tool> block without ${c.server ? 'tool_name' : 'server_name'}`);
            continue;
          }
          if (!NAME.test(c.server) || !NAME.test(c.tool)) {
            problem('<use_mcp_tool> block whose server_name or tool_name is not a name (not counted as a call)');
            continue;
          }
          // Bad arguments JSON is reported, but the call still shows which tool was wanted.
          if (c.argsError)
            problem(`<use_mcp_tool> ${c.server}.${c.tool}: arguments are not valid JSON (the call still counts)`);
          addCall({ server: c.server, tool: c.tool, rawName: `use_mcp_tool:${c.server}:${c.tool}`, key: key() });
        }
      }
      if (Array.isArray(message.content)) {
        for (const b of message.content) {
          if (!isRecord(b) || b.type !== 'tool_use' || b.name !== 'use_mcp_tool') continue;
          const input = isRecord(b.input) ? b.input : {};
          if (typeof input.server_name !== 'string' || typeof input.tool_name !== 'string') {
            problem('use_mcp_tool tool_use without server_name/tool_name');
            continue;
          }
          const call = addCall({
            server: input.server_name,
            tool: input.tool_name,
            rawName: `use_mcp_tool:${input.server_name}:${input.tool_name}`,
            key: typeof b.id === 'string' && b.id !== '' ? b.id : key(),
          });
          if (call && typeof b.id === 'string') byToolUseId.set(b.id, call);
        }
      }
      return;
    }

    // User message: tool results first, then whatever the user typed.
    if (Array.isArray(message.content)) {
      for (const b of message.content) {
        if (!isRecord(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
        const call = byToolUseId.get(b.tool_use_id);
        if (!call) continue;
        byToolUseId.delete(b.tool_use_id);
        pending = pending.filter((p) => p !== call);
        call.ok = b.is_error !== true && !ERROR_RESULT.test(textsOf(b.content).join('\n'));
      }
    }
    const whole = textsOf(message.content)
      .join('\n')
      .replace(/<environment_details>[\s\S]*?(<\/environment_details>|$)/g, '');
    applyResults(whole);
    const intents = USER_TAGS.flatMap((tag) => tagContents(whole, tag));
    const headerless =
      whole.search(RESULT_HEADER) === -1 && !/^\s*\[(ERROR|TASK RESUMPTION)\]/.test(whole) && !/<answer>/.test(whole);
    if (intents.length === 0 && headerless && whole.trim() !== '' && !/<tool_result>/.test(whole))
      intents.push(whole.trim());
    if (intents.length === 0) return;
    turn = { intent: intents.join('\n'), line, calls: [] };
    if (time !== undefined) turn.time = time;
    turns.push(turn);
    pending = [];
  });

  function addCall(call: RecordedCall): RecordedCall | undefined {
    if (!turn) {
      callsWithoutTurn++;
      return undefined;
    }
    turn.calls.push(call);
    pending.push(call);
    return call;
  }

  function applyResults(text: string): void {
    const headers = [...text.matchAll(RESULT_HEADER)];
    headers.forEach((h, i) => {
      const body = text.slice(h.index + h[0].length, headers[i + 1]?.index ?? text.length);
      if (h[1] !== 'use_mcp_tool') return;
      settle((c) => h[2] === undefined || c.server === h[2], body);
    });
    // The simplified protocol: <tool_result><tool_name>x</tool_name><status>ok|error</status>…</tool_result>
    for (const block of tagContents(text, 'tool_result')) {
      const name = tagContents(block, 'tool_name')[0];
      if (name) settle((c) => c.tool === name, block);
    }
  }

  function settle(match: (c: RecordedCall) => boolean, body: string): void {
    const call = pending.find(match);
    if (!call) return;
    pending = pending.filter((p) => p !== call);
    call.ok = !ERROR_RESULT.test(body);
    if (!call.ok) call.error = body.trim().slice(0, 200);
  }

  return {
    sessions: turns.length > 0 ? [{ id, file, format: 'cline', turns }] : [],
    problems,
    ...(callsWithoutTurn > 0 ? { callsWithoutTurn } : {}),
  };
}

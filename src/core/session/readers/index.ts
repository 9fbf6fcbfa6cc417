/** Detects a recording's format from its content and reads it with the matching reader. */
import { isRecord, type ReadResult, type SessionFormat } from '../model.js';
import { readClaudeCodeTranscript } from './claude-code.js';
import { readClineHistory, type ClineReadOptions } from './cline.js';
import { readIntents } from './intents.js';

export { parseMcpToolName, readClaudeCodeTranscript } from './claude-code.js';
export { readClineHistory, type ClineReadOptions } from './cline.js';
export { readIntents, splitToolId } from './intents.js';
export { parseAssistantText, type ParsedAssistantText, type XmlToolCall } from './xml-tools.js';

const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'file-history-snapshot']);
/**
 * Lines Claude Code writes between messages (hook and tool progress, queued prompts, file snapshots, titles): a
 * transcript may open with hundreds of them. Each counts for Claude Code without using up the lines looked at.
 */
const CLAUDE_BOOKKEEPING = new Set([
  'progress',
  'queue-operation',
  'file-history-snapshot',
  'summary',
  'system',
  'custom-title',
]);
/** Lines of other content looked at before giving up; and lines looked at in all, bookkeeping included. */
const DETECT_LINES = 50;
const DETECT_MAX_LINES = 5000;

/** A Cline/Roo message is `{role, content}`; Gemini CLI's checkpoints hold `{role, parts}` and are not Cline's. */
const isClineMessage = (m: unknown): boolean =>
  isRecord(m) && (m.role === 'user' || m.role === 'assistant') && 'content' in m;

function isClaudeBookkeeping(row: Record<string, unknown>): boolean {
  if (typeof row.type !== 'string' || !CLAUDE_BOOKKEEPING.has(row.type)) return false;
  return typeof row.sessionId === 'string' || 'summary' in row || ('messageId' in row && 'snapshot' in row);
}

/** The format of a recording, judged by content first and by file name only when content says nothing. */
export function detectSessionFormat(text: string, file: string): SessionFormat | undefined {
  const base = file.replace(/^.*[\\/]/, '');
  const head = text.trimStart();
  if (head.startsWith('[')) {
    try {
      const doc: unknown = JSON.parse(text);
      if (Array.isArray(doc) && doc.some(isClineMessage)) return 'cline';
      if (Array.isArray(doc) && doc.length > 0) return undefined; // another tool's list (a Gemini CLI checkpoint)
    } catch {
      // fall through to the name
    }
    if (base === 'api_conversation_history.json') return 'cline';
  }
  let inspected = 0;
  let seen = 0;
  let claude = false;
  for (const line of text.split('\n', DETECT_MAX_LINES)) {
    if (inspected >= DETECT_LINES || seen >= DETECT_MAX_LINES) break;
    const raw = line.trim();
    if (raw === '') continue;
    seen++;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      inspected++;
      continue;
    }
    if (isRecord(row) && isClaudeBookkeeping(row)) {
      claude = true;
      continue;
    }
    inspected++;
    if (!isRecord(row)) continue;
    if (typeof row.intent === 'string') return 'intents';
    if (
      typeof row.type === 'string' &&
      CLAUDE_TYPES.has(row.type) &&
      ('message' in row || 'sessionId' in row || 'summary' in row)
    )
      return 'claude-code';
  }
  if (claude) return 'claude-code';
  if (base === 'api_conversation_history.json') return 'cline';
  return undefined;
}

/** Reads one recording whose format is already known. */
export function readSessionText(
  format: SessionFormat,
  text: string,
  file: string,
  options: ClineReadOptions = {},
): ReadResult {
  if (format === 'claude-code') return readClaudeCodeTranscript(text, file);
  if (format === 'cline') return readClineHistory(text, file, options);
  return readIntents(text, file, options.sessionId);
}

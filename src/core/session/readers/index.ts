/** Detects a recording's format from its content and reads it with the matching reader. */
import { isRecord, type ReadResult, type SessionFormat } from '../model.js';
import { readClaudeCodeTranscript } from './claude-code.js';
import { readClineHistory } from './cline.js';
import { readIntents } from './intents.js';

export { parseMcpToolName, readClaudeCodeTranscript } from './claude-code.js';
export { readClineHistory, type ClineReadOptions } from './cline.js';
export { readIntents, splitToolId } from './intents.js';
export { parseAssistantText, type ParsedAssistantText, type XmlToolCall } from './xml-tools.js';

const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'file-history-snapshot']);

/** The format of a recording, judged by content first and by file name only when content says nothing. */
export function detectSessionFormat(text: string, file: string): SessionFormat | undefined {
  const base = file.replace(/^.*[\\/]/, '');
  const head = text.trimStart();
  if (head.startsWith('[')) {
    try {
      const doc: unknown = JSON.parse(text);
      if (Array.isArray(doc) && doc.some((m) => isRecord(m) && (m.role === 'user' || m.role === 'assistant')))
        return 'cline';
    } catch {
      // fall through to the name
    }
    if (base === 'api_conversation_history.json') return 'cline';
  }
  let inspected = 0;
  for (const line of text.split('\n')) {
    if (inspected >= 50) break;
    const raw = line.trim();
    if (raw === '') continue;
    inspected++;
    let row: unknown;
    try {
      row = JSON.parse(raw);
    } catch {
      continue;
    }
    if (!isRecord(row)) continue;
    if (typeof row.intent === 'string') return 'intents';
    if (
      typeof row.type === 'string' &&
      CLAUDE_TYPES.has(row.type) &&
      ('message' in row || 'sessionId' in row || 'summary' in row)
    )
      return 'claude-code';
  }
  if (base === 'api_conversation_history.json') return 'cline';
  return undefined;
}

/** Reads one recording whose format is already known. */
export function readSessionText(format: SessionFormat, text: string, file: string, clineOptions = {}): ReadResult {
  if (format === 'claude-code') return readClaudeCodeTranscript(text, file);
  if (format === 'cline') return readClineHistory(text, file, clineOptions);
  return readIntents(text, file);
}

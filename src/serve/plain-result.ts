/**
 * A tools/call result whose encoding is plainly itself: only text blocks of `type` and `text`, a structuredContent
 * object, an isError boolean. Such a result is a valid CallToolResult in either era, and the SDK's 2025 parse of it
 * gives an equal object (stdio-forward-calls.ts writes it on the wire; result-check.ts needs no schema for it).
 */
import { isPlainObject } from '../core/config/key-path.js';
import type { ToolResult } from './runtime-options.js';

/** The result keys whose 2025 encoding is the value itself (the SDK's parse would give an equal object). */
const RESULT_KEYS = new Set(['content', 'structuredContent', 'isError']);

/**
 * The result as the SDK's 2025 codec would write it, when that is plain to see: only text blocks of `type` and
 * `text`, a structuredContent object, an isError boolean. Undefined for anything else (the SDK then encodes it).
 * Its keys in the order the SDK's parse gives them.
 */
export function plainWireResult(result: ToolResult): Record<string, unknown> | undefined {
  const r = result as Record<string, unknown>;
  for (const key in r) if (!RESULT_KEYS.has(key)) return undefined;
  if (!Array.isArray(r.content)) return undefined;
  const content: { type: 'text'; text: string }[] = [];
  for (const block of r.content as unknown[]) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return undefined;
    for (const key in block) if (key !== 'type' && key !== 'text') return undefined;
    content.push({ type: 'text', text: block.text });
  }
  const out: Record<string, unknown> = { content };
  const structured = r.structuredContent;
  if (structured !== undefined) {
    // A record's parse copies its keys one by one: `__proto__` would not survive it.
    if (!isPlainObject(structured) || Object.hasOwn(structured, '__proto__')) return undefined;
    out.structuredContent = structured;
  }
  if (r.isError !== undefined) {
    if (typeof r.isError !== 'boolean') return undefined;
    out.isError = r.isError;
  }
  return out;
}

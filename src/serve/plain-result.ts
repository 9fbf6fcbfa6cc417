/**
 * A tools/call result whose encoding is plainly itself: only text blocks of `type` and `text`, a structuredContent
 * object, an isError boolean. Such a result is a valid CallToolResult in either era, and the SDK's 2025 parse of it
 * gives an equal object (stdio-forward-calls.ts writes it on the wire; result-check.ts needs no schema for it).
 *
 * Both readers scan the result without allocating: the check (isPlainResult) for every forwarded result, and the
 * wire path (plainWireResult), which writes the result object itself when its keys are already in the order the
 * SDK's parse gives them (what a server usually sends) and a reordered copy only when they are not.
 */
import { isPlainObject } from '../core/config/key-path.js';
import type { ToolResult } from './runtime-options.js';

/** Not plain: the SDK encodes it. */
const NOT_PLAIN = 0;
/** Plain, its keys already in the SDK parse's order: its JSON is the SDK's. */
const AS_IS = 1;
/** Plain, some keys in another order: a copy in the SDK parse's order is. */
const REORDER = 2;
type Form = typeof NOT_PLAIN | typeof AS_IS | typeof REORDER;

/** A result key's place in the SDK parse's order (1, 2, 3); 0 for a key whose encoding is not the value itself. */
function rankOf(key: string): number {
  return key === 'content' ? 1 : key === 'structuredContent' ? 2 : key === 'isError' ? 3 : 0;
}

/** Which of the three a result is, in one pass over its keys and blocks, allocating nothing. */
function plainForm(result: ToolResult): Form {
  const r = result as Record<string, unknown>;
  let inOrder = true;
  let last = 0;
  for (const key in r) {
    const rank = rankOf(key);
    if (rank === 0) return NOT_PLAIN;
    // A key whose value is undefined is left out of the JSON (and of the SDK's parse): its place does not count.
    if (r[key] === undefined) continue;
    if (rank < last) inOrder = false;
    last = rank;
  }
  const content = r.content;
  if (!Array.isArray(content)) return NOT_PLAIN;
  for (const block of content as unknown[]) {
    if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return NOT_PLAIN;
    let at = 0;
    for (const key in block) {
      if (key === 'type') inOrder &&= at === 0;
      else if (key !== 'text') return NOT_PLAIN;
      at++;
    }
  }
  const structured = r.structuredContent;
  // A record's parse copies its keys one by one: `__proto__` would not survive it.
  if (structured !== undefined && (!isPlainObject(structured) || Object.hasOwn(structured, '__proto__')))
    return NOT_PLAIN;
  if (r.isError !== undefined && typeof r.isError !== 'boolean') return NOT_PLAIN;
  return inOrder ? AS_IS : REORDER;
}

/** Whether the result is plain (see the file's comment): valid without the schema's parse. Allocates nothing. */
export function isPlainResult(result: ToolResult): boolean {
  return plainForm(result) !== NOT_PLAIN;
}

/**
 * The result as the SDK's 2025 codec would write it, when that is plain to see: only text blocks of `type` and
 * `text`, a structuredContent object, an isError boolean. Undefined for anything else (the SDK then encodes it).
 * Its keys in the order the SDK's parse gives them: the result itself when they already are, else a copy.
 */
export function plainWireResult(result: ToolResult): Record<string, unknown> | undefined {
  const form = plainForm(result);
  if (form === NOT_PLAIN) return undefined;
  const r = result as Record<string, unknown>;
  if (form === AS_IS) return r;
  const content = (r.content as { text: string }[]).map((block) => ({ type: 'text', text: block.text }));
  const out: Record<string, unknown> = { content };
  if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
  if (r.isError !== undefined) out.isError = r.isError;
  return out;
}

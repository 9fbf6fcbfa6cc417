/**
 * A meta-tool's answer written on the stdio wire without escaping its text again. find_tool's answer is JSON, so
 * nearly every character of it is a quote to escape when the JSON-RPC response is serialised (the SDK's
 * `serializeMessage`: `JSON.stringify(message) + "\n"`, ~20 µs per answer in a profile of find_tool over stdio). The
 * answer is made of lines kept per catalogue entry (find-budget.ts), so each line is escaped once, and the answer's
 * JSON string literal is put together from them beside its text. `wireResponse` writes the same bytes as the SDK's
 * serialisation (test/unit/text-json.test.ts), and gives up (undefined) for any result not plainly shaped so.
 */

/** Each text content item's text as a JSON string literal, given by whoever made the item with it at hand. */
const literals = new WeakMap<object, string>();

/** Notes `literal` (JSON.stringify(item.text)) for a text content item; returns the item. */
export function withJsonLiteral<T extends { type: 'text'; text: string }>(item: T, literal: string): T {
  literals.set(item, literal);
  return item;
}

/** A JSON string's escaped body (JSON.stringify without its quotes). */
export const escapedJson = (text: string): string => JSON.stringify(text).slice(1, -1);

/** Whether `o` has exactly `keys`, in that order, as its own enumerable keys. */
function keysAre(o: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k) || k !== keys[i]) return false;
    i++;
  }
  return i === keys.length;
}

const RESULT_KEYS = ['content'];
const TEXT_KEYS = ['type', 'text'];

/**
 * The JSON-RPC line `serializeMessage({ jsonrpc: '2.0', id, result })` gives, when `result` is `{ content }` of text
 * items only (plain objects, keys in that order) and at least one item's literal was noted; undefined otherwise.
 */
export function wireResponse(id: string | number, result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null || Object.getPrototypeOf(result) !== Object.prototype) return;
  if (!keysAre(result, RESULT_KEYS)) return;
  const content = (result as { content: unknown }).content;
  if (!Array.isArray(content) || content.length === 0) return;
  let body = '';
  let noted = false;
  for (let i = 0; i < content.length; i++) {
    const item: unknown = content[i];
    if (typeof item !== 'object' || item === null || Object.getPrototypeOf(item) !== Object.prototype) return;
    if (!keysAre(item, TEXT_KEYS)) return;
    const { type, text } = item as { type: unknown; text: unknown };
    if (type !== 'text' || typeof text !== 'string') return;
    const literal = literals.get(item);
    if (literal !== undefined) noted = true;
    body += `${i === 0 ? '' : ','}{"type":"text","text":${literal ?? JSON.stringify(text)}}`;
  }
  if (!noted) return;
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[${body}]}}\n`;
}

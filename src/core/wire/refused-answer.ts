/**
 * An answer from a server that the SDK's strict message schema refused. Before, such a line was skipped (a note for
 * --debug only) and the request it answered waited for its whole timeout, then said "raise --timeout".
 *
 * JSON-RPC 2.0 §5 asks a response for `jsonrpc`, `id` and one of `result` or `error`; it forbids neither other
 * members nor, in practice, do many non-SDK libraries hold back from `"error": null` beside a result (JSON-RPC 1.0
 * required it). Such an answer is tolerated: the extra members are dropped and the rest is read as usual. Any other
 * refused answer that carries an id (a `result` that is not an object, an `error` without a code and a message, a
 * `jsonrpc` that is not "2.0", both a result and an error) becomes an error answer for that id, so the request it
 * answers fails at once, saying why.
 */
import { has, isId, isObject } from './jsonrpc-message.js';
import { refusalText } from './zod-issues.js';

/** JSON-RPC's "Internal error": the code the oversized-message path answers with as well (stdio.ts). */
const INTERNAL_ERROR = -32603;

export interface ErrorAnswer {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string };
}

export type RefusedAnswer =
  /** Read after dropping members the schema does not allow (`dropped`, for the debug note). */
  | { kind: 'tolerated'; message: unknown; dropped: string[] }
  /** Not readable as an answer: the error answer that fails its request, and why (for the debug note). */
  | { kind: 'failed'; message: ErrorAnswer; reason: string };

const shown = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/**
 * What to do with `value` (a parsed line `strict` refused with `error`): undefined when it is not an answer to a
 * request (no id, or a method: a request or notification, left as the caller handles them).
 */
export function refusedAnswer(
  value: unknown,
  error: unknown,
  strict: (line: string) => unknown,
): RefusedAnswer | undefined {
  if (!isObject(value) || has(value, 'method') || !isId(value.id)) return undefined;
  const id = value.id;
  const failed = (why: string): RefusedAnswer => {
    const reason = `the server answered with an invalid message: ${why}`;
    return {
      kind: 'failed',
      message: { jsonrpc: '2.0', id, error: { code: INTERNAL_ERROR, message: reason } },
      reason,
    };
  };
  if (value.jsonrpc !== '2.0') {
    const is = has(value, 'jsonrpc') ? `is ${shown(value.jsonrpc)}, not "2.0"` : 'is missing';
    return failed(`its "jsonrpc" ${is}`);
  }
  const result = has(value, 'result') && value.result !== null;
  const err = has(value, 'error') && value.error !== null;
  if (result && err) return failed('it holds both a "result" and an "error"');
  if (!result && !err) {
    if (has(value, 'result')) return failed('its "result" is null, not an object');
    return failed(has(value, 'error') ? 'its "error" is null' : 'it holds neither a "result" nor an "error"');
  }
  const key = result ? 'result' : 'error';
  if (result && !isObject(value.result)) return failed(`its "result" is ${shown(value.result)}, not an object`);
  const e = value.error;
  if (err && !(isObject(e) && Number.isSafeInteger(e.code) && typeof e.message === 'string'))
    return failed(`its "error" is ${shown(e)}, not an object with an integer "code" and a string "message"`);
  const trimmed = { jsonrpc: '2.0', id, [key]: value[key] };
  let message: unknown;
  try {
    message = strict(JSON.stringify(trimmed));
  } catch (e) {
    return failed(refusalText(e));
  }
  const dropped = Object.keys(value).filter((k) => !has(trimmed, k));
  // Nothing to drop: the refusal was not about extra members (strict refused the same message above).
  if (dropped.length === 0) return failed(refusalText(error));
  return { kind: 'tolerated', message, dropped };
}

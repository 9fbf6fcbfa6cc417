/**
 * What to tell a peer whose line is not a JSON-RPC message we can take (JSON-RPC 2.0 §5.1): a line that is not JSON is
 * a Parse error; a batch, or a request that breaks the message rules (its `jsonrpc` not "2.0", an id that is neither
 * a string nor an integer), an Invalid Request, answered with its id when one can be read and null otherwise. A
 * response or a notification is never answered (the rules forbid it). The MCP SDKs' stdio transports drop such a line
 * without a word, and a client that sent one waited for an answer that never came.
 */

import { has, isId, isObject } from './jsonrpc-message.js';
import { refusalText } from './zod-issues.js';
import { batchRefusal, INVALID_REQUEST } from './request-rules.js';

export { INVALID_REQUEST };
export const PARSE_ERROR = -32700;

export interface Unreadable {
  /** Why the line was not taken, for the log. */
  reason: string;
  /** The JSON-RPC error to send back, when the line asked something (or could not be read at all). */
  answer?: { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } };
}

const answer = (id: unknown, code: number, reason: string): NonNullable<Unreadable['answer']> => ({
  jsonrpc: '2.0',
  id: typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null,
  error: { code, message: `mcp-smart: ${reason}` },
});

/** Why `line` (which the message reader refused with `error`) is not a message, and the answer it is owed. */
export function unreadableMessage(line: string, error: unknown): Unreadable {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const reason = 'the line is not JSON; send one JSON-RPC message per line';
    return { reason, answer: answer(null, PARSE_ERROR, reason) };
  }
  if (Array.isArray(value)) {
    const reason = batchRefusal('line');
    return { reason, answer: answer(null, INVALID_REQUEST, reason) };
  }
  if (!isObject(value)) {
    const reason = 'the line is JSON but not a JSON-RPC message object';
    return { reason, answer: answer(null, INVALID_REQUEST, reason) };
  }
  const m = value;
  // Never answered: a response (a result or an error, no method) and a notification (a method name, no id). Anything
  // else asked something, or cannot be told apart from a request (`"method": 5`, an id alone): answered.
  const response = !has(m, 'method') && (has(m, 'result') || has(m, 'error'));
  const notification = typeof m.method === 'string' && !has(m, 'id');
  const asks = !response && !notification;
  const why =
    m.jsonrpc !== '2.0'
      ? `its "jsonrpc" is ${JSON.stringify(m.jsonrpc) ?? 'missing'}, not "2.0"`
      : has(m, 'id') && !isId(m.id)
        ? `its id ${JSON.stringify(m.id)} is neither a string nor an integer`
        : has(m, 'params') && !isObject(m.params)
          ? `its "params" is ${JSON.stringify(m.params)}, not an object`
          : refusalText(error);
  const what =
    typeof m.method === 'string'
      ? `${JSON.stringify(m.method)} ${asks ? 'request' : 'notification'}`
      : has(m, 'method')
        ? `message whose "method" is ${JSON.stringify(m.method)}, not a name,`
        : 'message';
  const reason = `a ${what} that is not a valid JSON-RPC message: ${why}`;
  return asks ? { reason, answer: answer(m.id, INVALID_REQUEST, reason) } : { reason };
}

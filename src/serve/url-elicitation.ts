/**
 * A 2025 server's -32042 (URL elicitation required, MCP 2025-11-25): the call cannot go on until the user completes
 * the URL elicitations its `data.elicitations` lists, after which the client calls again. 2026-07-28 has no such
 * error (the SDK answers a handler that throws it -32603): URL elicitation there is an input_required round whose
 * `inputRequests` hold `elicitation/create` requests in URL mode, without the 2025 `elicitationId`. The bridge
 * (bridge.ts) asks them as a round, and the client's retry runs the call to the server again, as a 2025 client's would.
 */
import { isObject } from '../core/wire/jsonrpc-message.js';

const URL_ELICITATION_REQUIRED = -32042;

/** The `elicitation/create` params (2026-07-28 URL mode) of a server's -32042 error; undefined for any other error. */
export function urlElicitations(error: unknown): Record<string, unknown>[] | undefined {
  if (!isObject(error) || error.code !== URL_ELICITATION_REQUIRED || !isObject(error.data)) return undefined;
  const listed = error.data.elicitations;
  if (!Array.isArray(listed)) return undefined;
  const asks = listed.filter(isObject).map(({ elicitationId: _id, ...params }) => ({ ...params, mode: 'url' }));
  return asks.length > 0 ? asks : undefined;
}

/** Whether a request's declared client capabilities take URL-mode elicitation. */
export const declaresUrlElicitation = (capabilities: Record<string, unknown>): boolean =>
  isObject(capabilities.elicitation) && isObject(capabilities.elicitation.url);

/**
 * The answer when the user did not accept a URL elicitation (`name`: the round's, `<method> <name or uri>`); the server
 * is not called again. A tool call ends with an error result, as tool errors do. prompts/get and resources/read have
 * no error result, so they end with a JSON-RPC error: thrown, it is answered -32603, as a round whose replica is gone
 * (replica/replicas.ts). Not -32042, which a 2025 client gets: MCP 2026-07-28 forbids emitting it (basic, Error Codes).
 */
export function urlDeclinedResult(name: string, action: string): Record<string, unknown> {
  const tool = name.startsWith('tools/call ');
  const text = `mcp-smart: the server behind needs the user to complete a URL elicitation first, and the answer was "${action}"; the ${tool ? 'call' : 'request'} was not made again.`;
  if (!tool) throw new Error(text);
  return { content: [{ type: 'text', text }], isError: true };
}

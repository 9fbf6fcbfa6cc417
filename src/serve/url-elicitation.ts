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
 * The words when the user did not accept a URL elicitation (`name`: the round's, `<method> <name or uri>`); the server
 * is not called again. How the round ends with them is roundFailure's (bridge.ts): a tool call with an error result,
 * prompts/get and resources/read with a JSON-RPC error (-32603). Not -32042, which a 2025 client gets: MCP 2026-07-28
 * forbids emitting it (basic, Error Codes).
 */
export function urlDeclinedText(name: string, action: string): string {
  const what = name.startsWith(TOOL_CALL_ROUND) ? 'call' : 'request';
  return `mcp-smart: the server behind needs the user to complete a URL elicitation first, and the answer was "${action}"; the ${what} was not made again.`;
}

/** How the name of a tool call's round starts (sdk-server.ts names a round `<method> <name or uri>`). */
export const TOOL_CALL_ROUND = 'tools/call ';

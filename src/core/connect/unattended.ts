/**
 * Answers to a server's requests when no user or model is there to answer (audit, dump, budget … and serve with
 * no connected client that accepts the request). A declared capability is always answered, never left waiting:
 * roots → none shared, elicitation → declined, sampling → refused (the spec's "user rejected" error).
 */

/** The JSON-RPC code the MCP spec's sampling example uses for a rejected request. */
export const SAMPLING_REFUSED = -1;

export function unattendedAnswer(method: string): Promise<Record<string, unknown>> {
  if (method === 'roots/list') return Promise.resolve({ roots: [] });
  if (method === 'elicitation/create') return Promise.resolve({ action: 'decline' });
  // The client SDK's own error class (its request handlers answer with its code); imported here, when a server
  // asks, so that serve's start does not load the client SDK for it.
  return import('@modelcontextprotocol/client').then(({ ProtocolError }) =>
    Promise.reject(
      new ProtocolError(
        SAMPLING_REFUSED,
        `mcp-smart has no model to answer ${method} here (no connected client accepts it)`,
      ),
    ),
  );
}

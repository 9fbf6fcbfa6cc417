// A 2026-07-28 tools/call over Streamable HTTP, as the wire carries it (headers, `_meta` envelope), without an SDK
// client: the tests and bench/gateway.mjs use it to send a round's requestState to a replica of their choosing.

/** Every client capability a 2025 server may ask for (elicitation, sampling, roots). */
export const ALL_CAPABILITIES = { roots: { listChanged: true }, elicitation: {}, sampling: {} };

/**
 * Posts one tools/call and returns its JSON-RPC answer (`{ result }` or `{ error }`), read from a JSON body or the SSE
 * stream. `id`: the request id; `client`: the clientInfo name; `capabilities`: what the request declares; `fetch`:
 * the fetch to send it with (default the global one); `headers`: added to the request's (an Authorization header);
 * `method`: another request of the same shape (prompts/get, resources/read: Mcp-Name is then its name or uri).
 */
export async function postModernCall(
  url,
  params,
  {
    id = 1,
    client = 'raw',
    capabilities = ALL_CAPABILITIES,
    signal,
    fetch: send = fetch,
    headers = {},
    method = 'tools/call',
  } = {},
) {
  const res = await send(url, {
    method: 'POST',
    signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      'mcp-name': String(params.name ?? params.uri),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    }),
  });
  const text = await res.text();
  const messages = res.headers.get('content-type')?.includes('text/event-stream')
    ? text.split('\n').flatMap((l) => (l.startsWith('data:') ? [JSON.parse(l.slice(5))] : []))
    : [JSON.parse(text)];
  const answer = messages.find((m) => m.id === id);
  if (!answer) throw new Error(`HTTP ${res.status}: no answer to request ${id}`);
  return answer;
}

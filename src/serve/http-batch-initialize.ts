/**
 * An initialize request inside a JSON-RPC batch over Streamable HTTP (MCP 2025-03-26, basic/lifecycle: "The initialize
 * request MUST NOT be part of a JSON-RPC batch"): that member is answered -32600, the others as they would be without
 * it. The SDK's transport refused the whole POST instead ("Server already initialized"), and without a session serve
 * told the client to send the initialize it had just sent. In a session each such member reaches the transport under
 * a method of ours (markInitializeMembers) that the session's own message handler answers (refuseMarkedMembers), so
 * the refusal joins the batch's other answers on their stream; without a session every member is refused here.
 */
import type { Transport } from '@modelcontextprotocol/server';
import {
  errorAnswer,
  INVALID_REQUEST,
  initializeInBatch,
  isInitializeMember,
  requestIds,
  type RequestId,
} from '../core/wire/request-rules.js';

/** What a marked member is called on its way through the SDK's transport (never a method a server has). */
const REFUSED_INITIALIZE = 'mcp-smart/initialize-in-batch';

const refusal = (): string => `Invalid Request: ${initializeInBatch('request')}`;

/** The batch with each initialize request renamed for refuseMarkedMembers; anything else as it came. */
export function markInitializeMembers(body: unknown): unknown {
  if (!Array.isArray(body) || !body.some(isInitializeMember)) return body;
  return (body as unknown[]).map((m) =>
    isInitializeMember(m) ? { jsonrpc: '2.0', id: m.id, method: REFUSED_INITIALIZE } : m,
  );
}

/** Wraps the session's message handler (set by its Server's connect) so that a marked member is answered -32600. */
export function refuseMarkedMembers(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method !== REFUSED_INITIALIZE) return deliver?.(message, extra);
    const error = { code: INVALID_REQUEST, message: refusal() };
    void transport.send({ jsonrpc: '2.0', id: m.id as RequestId, error }).catch(() => undefined);
  };
}

/**
 * A batch holding an initialize, sent without a session: one answer per request, the initialize refused as never
 * batched and each other request with `noSession` (nothing opens a session for it). Undefined for anything else.
 */
export function sessionlessBatchAnswers(
  body: unknown,
  noSession: { code: number; message: string },
): ReturnType<typeof errorAnswer>[] | undefined {
  if (!Array.isArray(body) || !body.some(isInitializeMember)) return undefined;
  return body.flatMap((m: unknown) => {
    if (isInitializeMember(m)) return [errorAnswer(m.id, INVALID_REQUEST, refusal())];
    const [id] = requestIds(m);
    return id === undefined ? [] : [errorAnswer(id, noSession.code, noSession.message)];
  });
}

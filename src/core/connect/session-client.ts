/**
 * The SDK Client a server session connects through: what it declares, the era it negotiates, and who answers the
 * requests and notifications the server sends it.
 */
import { Client, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import type {
  ClientCapabilities,
  JsonSchemaValidator,
  jsonSchemaValidator,
  Transport,
} from '@modelcontextprotocol/client';
import type { DeclaredCapabilities } from '../declared-capabilities.js';
import { probeTimeout } from './era.js';

/** The requests a server sends its client mid-call, each behind a client capability. */
const ASKS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

const CLIENT_INFO = { name: 'mcp-smart', version: '0.1.0' };

/**
 * Tool output is passed on unchanged, never validated here. The SDK's default builds a fresh Ajv per Client
 * (about 9 ms each), which delays every spawn after the first when many servers start together.
 */
const NO_OUTPUT_VALIDATION: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

/** A request the server sends to its client (elicitation, sampling, roots), answered by whoever owns the session. */
export type ServerRequestHandler = (
  method: string,
  params: Record<string, unknown> | undefined,
  signal: AbortSignal,
) => Promise<Record<string, unknown>>;

/** What a session's client declares and how it answers what the server sends (part of ServerSessionOptions). */
export interface ClientHandlers {
  /** Capabilities declared to the server; elicitation/sampling/roots only when `onServerRequest` can answer them. */
  capabilities?: DeclaredCapabilities;
  onServerRequest?: ServerRequestHandler;
  /**
   * Asked when the server sends elicitation/create, sampling/createMessage or roots/list although that capability was
   * not declared to it: an answer, or undefined for -32601 Method not found (what the SDK answers without a handler).
   */
  onUndeclaredRequest?: (...args: Parameters<ServerRequestHandler>) => ReturnType<ServerRequestHandler> | undefined;
  /** Every notification the server sends that the SDK does not consume itself (list changes, resource updates, logs). */
  onNotification?: (method: string, params: Record<string, unknown> | undefined) => void;
}

/**
 * A Client for one connection attempt: `pin` 'auto' negotiates the era by probe (bounded by part of `timeoutMs`),
 * another version pins it, none opens with `initialize`.
 */
export function createSessionClient(handlers: ClientHandlers, timeoutMs: number, pin?: string): Client {
  const capabilities = (handlers.capabilities ?? {}) as ClientCapabilities;
  const client = new Client(CLIENT_INFO, {
    capabilities,
    jsonSchemaValidator: NO_OUTPUT_VALIDATION,
    ...(pin === 'auto' && { versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeTimeout(timeoutMs) } } }),
    ...(pin && pin !== 'auto' && { versionNegotiation: { mode: { pin } } }),
  });
  const answer = handlers.onServerRequest;
  if (answer && capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (req, ctx) => {
      const result = await answer('elicitation/create', req.params, ctx.mcpReq.signal);
      return result as never;
    });
  }
  if (answer && capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async (req, ctx) => {
      const result = await answer('sampling/createMessage', req.params, ctx.mcpReq.signal);
      return result as never;
    });
  }
  if (answer && capabilities.roots) {
    client.setRequestHandler('roots/list', async (req, ctx) => {
      const result = await answer('roots/list', req.params, ctx.mcpReq.signal);
      return result as never;
    });
  }
  const undeclared = handlers.onUndeclaredRequest;
  if (undeclared) {
    client.fallbackRequestHandler = (req, ctx) => {
      const answer = ASKS.has(req.method) ? undeclared(req.method, req.params, ctx.mcpReq.signal) : undefined;
      return answer ?? Promise.reject(new ProtocolError(ProtocolErrorCode.MethodNotFound, 'Method not found'));
    };
  }
  const notify = handlers.onNotification;
  if (notify) {
    client.fallbackNotificationHandler = async (n) => {
      notify(n.method, n.params);
      return Promise.resolve();
    };
  }
  return client;
}

/** Records the negotiated protocol version: the Client hands it to any transport that accepts it. */
export function tapProtocolVersion(t: Transport, onVersion: (v: string) => void): Transport {
  const original = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v: string) => {
    onVersion(v);
    original?.(v);
  };
  return t;
}

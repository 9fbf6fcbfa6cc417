/**
 * A client connection of the SDK's Server as the asker of a call (in-flight.ts): what the servers behind may ask it
 * during the call (elicitation, sampling, roots), when it declared any of them.
 */
import { ResultSchema } from '@modelcontextprotocol/core';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { Asker } from './in-flight.js';

/**
 * This client, when it accepts elicitation, sampling or roots; asked on the given call's stream when there is one,
 * else as a request of the Server to its client (on stdio, the one connection).
 */
export function clientAsker(server: Server, extra?: ServerContext): Asker | undefined {
  const caps = (server.getClientCapabilities() as Record<string, unknown> | undefined) ?? {};
  if (caps.elicitation === undefined && caps.sampling === undefined && caps.roots === undefined) return undefined;
  return {
    capabilities: caps,
    ask: (method, params, signal) =>
      extra
        ? extra.mcpReq.send({ method, params } as never, ResultSchema, { signal })
        : server.request({ method, params } as never, ResultSchema, { signal }),
  };
}

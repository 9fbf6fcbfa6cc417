/**
 * A request whose params break its method's schema (`initialize` without params, `logging/setLevel` with a level that
 * is none, `resources/read` without a uri) is answered -32602 Invalid params naming what is wrong, as JSON-RPC asks.
 * The SDK's Server checks a spec method's params before its handler runs and throws a plain Error with zod's issues
 * as JSON, which it answers -32603 Internal error with that dump (only tools/call had its own -32602).
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import { issuesLine } from '../core/wire/zod-issues.js';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The SDK's Server, with a spec method's params check failing as -32602 Invalid params. */
export class ParamsCheckedServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked: Handler = (request, ctx) => {
      try {
        // The SDK checks the params synchronously, before it calls the handler (serve's handlers are async).
        return handler(request, ctx);
      } catch (e) {
        const line = e instanceof Error && e.constructor === Error ? issuesLine(e.message) : undefined;
        if (line === undefined) throw e;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${line}`);
      }
    };
    return super._wrapHandler(method, checked);
  }
}

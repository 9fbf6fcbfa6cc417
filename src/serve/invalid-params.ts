/**
 * A request whose params break its method's schema (`initialize` without params, `logging/setLevel` with a level that
 * is none, `resources/read` without a uri) is answered -32602 Invalid params naming what is wrong, as JSON-RPC asks.
 * The SDK's Server checks a spec method's params before its handler runs and throws a plain Error with zod's issues
 * as JSON, which it answers -32603 Internal error with that dump (only tools/call had its own -32602).
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Issues shown in the message; the rest are counted. */
const SHOWN_ISSUES = 3;

/** zod's issues (a JSON array of {path, message}) in one line, or undefined when `text` is not that. */
export function issuesLine(text: string): string | undefined {
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const lines: string[] = [];
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue !== 'object' || issue === null || typeof issue.message !== 'string') return undefined;
    const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
    lines.push(path ? `${path}: ${issue.message}` : issue.message);
  }
  const more = lines.length - SHOWN_ISSUES;
  return lines.slice(0, SHOWN_ISSUES).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

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

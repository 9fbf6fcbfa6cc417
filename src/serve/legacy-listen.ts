/**
 * `subscriptions/listen` on a 2025-11-25 connection. On a 2026-07-28 connection the SDK's entry (serveStdio,
 * createMcpHandler) serves it before the request reaches the Server, so this handler only ever sees a client that
 * initialized the 2025 way and still opens a listen stream — Claude Code does after falling back from its
 * `server/discover` probe, and got "Method not found" three times. It is answered as the 2026 entry answers it:
 * acknowledged with the honored filter, held open until the client cancels it or the connection ends, then closed
 * with an empty result. Change notifications reach a 2025 connection unsolicited, as that era delivers them.
 */
import { SUBSCRIPTION_ID_META_KEY, type Server, type ServerCapabilities } from '@modelcontextprotocol/server';

interface Filter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

/** What of the requested filter this server can deliver (its declared capabilities decide). */
export function honoredFilter(asked: Filter, caps: ServerCapabilities): Filter {
  const out: Filter = {};
  if (asked.toolsListChanged === true && caps.tools?.listChanged === true) out.toolsListChanged = true;
  if (asked.promptsListChanged === true && caps.prompts?.listChanged === true) out.promptsListChanged = true;
  if (asked.resourcesListChanged === true && caps.resources?.listChanged === true) out.resourcesListChanged = true;
  const uris = asked.resourceSubscriptions ?? [];
  if (uris.length > 0 && caps.resources?.subscribe === true) out.resourceSubscriptions = [...uris];
  return out;
}

/** Registers the handler; returns what ends every open subscription (called when the connection closes). */
export function answerListen(server: Server): () => void {
  const open = new Set<() => void>();
  server.setRequestHandler('subscriptions/listen', async (req, ctx) => {
    const id = ctx.mcpReq.id;
    const params = (req.params ?? {}) as { notifications?: Filter };
    const honored = honoredFilter(params.notifications ?? {}, server.getCapabilities());
    await ctx.mcpReq.notify({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: honored, _meta: { [SUBSCRIPTION_ID_META_KEY]: id } },
    });
    const signal = ctx.mcpReq.signal;
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve();
      const end = (): void => {
        open.delete(end);
        resolve();
      };
      open.add(end);
      signal.addEventListener('abort', end, { once: true });
    });
    return { _meta: { [SUBSCRIPTION_ID_META_KEY]: id } };
  });
  return () => {
    for (const end of [...open]) end();
  };
}

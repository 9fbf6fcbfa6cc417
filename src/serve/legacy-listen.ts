/**
 * `subscriptions/listen` on a 2025-11-25 stdio connection. On a 2026-07-28 connection the SDK's entry (serveStdio)
 * serves it; a connection opened with `initialize` answered it "Method not found" (the SDK's 2025 method table has no
 * such method, whatever handler is set), which Claude Code logged three times after falling back from its
 * `server/discover` probe. It is answered here, on the wire, as the 2026 entry answers it: acknowledged with the
 * honored filter, held open until the client cancels it, then closed with an empty result. Change notifications
 * reach a 2025 connection unsolicited, as that era delivers them.
 */
import { SUBSCRIPTION_ID_META_KEY, type JSONRPCMessage, type ServerCapabilities } from '@modelcontextprotocol/server';
import { listenRefusal, MAX_LISTENS_PER_CLIENT } from './listen-limit.js';

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

type Id = string | number;
interface Message {
  id?: Id;
  method?: string;
  params?: { notifications?: Filter; requestId?: Id };
}

export class LegacyListens {
  private readonly open = new Set<Id>();

  constructor(
    private readonly send: (message: JSONRPCMessage) => Promise<void>,
    private readonly capabilities: () => ServerCapabilities,
  ) {}

  /** Answers a listen request, or the cancel of one; true when `message` was one (not passed on). */
  take(message: JSONRPCMessage): boolean {
    const m = message as Message;
    if (m.method === 'subscriptions/listen' && m.id !== undefined) {
      // The connection's one client keeps as many open as an HTTP client may (listen-limit.ts).
      if (this.open.size >= MAX_LISTENS_PER_CLIENT && !this.open.has(m.id)) {
        const message = listenRefusal();
        this.write({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message } });
        return true;
      }
      const notifications = honoredFilter(m.params?.notifications ?? {}, this.capabilities());
      this.open.add(m.id);
      this.write({
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications, _meta: { [SUBSCRIPTION_ID_META_KEY]: m.id } },
      });
      return true;
    }
    const id = m.params?.requestId;
    if (m.method !== 'notifications/cancelled' || id === undefined || !this.open.delete(id)) return false;
    this.write({ jsonrpc: '2.0', id, result: { _meta: { [SUBSCRIPTION_ID_META_KEY]: id } } });
    return true;
  }

  private write(message: Record<string, unknown>): void {
    void this.send(message as JSONRPCMessage).catch(() => undefined);
  }
}

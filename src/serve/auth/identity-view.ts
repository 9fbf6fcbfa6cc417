/**
 * What one caller is served: the shared view without the tools their `serve.auth` user or group filters refuse. A
 * refused tool moves to the view's `hidden` map, naming the rule, so tools/list, find_tool, describe_tool, list_tools
 * and call_tool treat it as every other hidden tool (never listed, found or called; a call names the rule). Views are
 * kept per identity for the shared view they were made from (a new list makes them again).
 */
import { identityRefusal, identityServerRefusal, type Identity } from '../../core/config/identity-filter.js';
import type { ServeAuthConfig } from '../../core/types.js';
import type { ServedView } from '../served-view.js';

/** Identities whose views are kept per shared view (past it the oldest is made again when next asked). */
const KEPT = 500;

export class IdentityViews {
  private of: ServedView | undefined;
  private readonly views = new Map<string, ServedView>();

  constructor(
    private readonly auth: ServeAuthConfig | undefined,
    private readonly configFile: string | undefined,
  ) {}

  /** The view `identity` is served; the shared one when no filter applies (or no identity: stdio, --token-env). */
  viewFor(shared: ServedView, identity: Identity | undefined): ServedView {
    const auth = this.auth;
    if (!identity || !auth || (!auth.users && !auth.groups)) return shared;
    if (this.of !== shared) {
      this.of = shared;
      this.views.clear();
    }
    const key = JSON.stringify([identity.subject, identity.groups]);
    let view = this.views.get(key);
    if (!view) {
      view = filtered(shared, (id) => identityRefusal(auth, identity, id), this.configFile);
      if (this.views.size >= KEPT) this.views.delete(this.views.keys().next().value!);
      this.views.set(key, view);
    }
    return view;
  }

  /**
   * The rule keeping `identity` from `server`'s prompts and resources, with the file it is in ("serve.auth.groups.
   * contractors.excludeTools in …"), or undefined: only a rule that refuses all of the server's tools does.
   */
  serverRefusal(identity: Identity | undefined, server: string): string | undefined {
    const rule = identityServerRefusal(this.auth, identity, server);
    return rule && `${rule} in ${this.configFile ?? 'mcp-smart.config.json'}`;
  }
}

function filtered(
  shared: ServedView,
  refusal: (id: string) => string | undefined,
  file: string | undefined,
): ServedView {
  const inFile = ` in ${file ?? 'mcp-smart.config.json'}`;
  const hidden = new Map(shared.hidden);
  const entries = new Map(shared.entries);
  const servedNameOf = new Map(shared.servedNameOf);
  for (const [id, e] of shared.entries) {
    const rule = refusal(id);
    if (!rule) continue;
    entries.delete(id);
    servedNameOf.delete(id);
    hidden.set(id, { server: e.server, tool: e.tool.name, by: { filter: 'exclude', where: `${rule}${inFile}` } });
  }
  if (entries.size === shared.entries.size) return shared;
  const tools = shared.tools.filter((t) => !t.entry || entries.has(t.entry.id));
  return { ...shared, tools, byName: new Map(tools.map((t) => [t.name, t])), entries, hidden, servedNameOf };
}

/** Prompts and resources of the servers behind: listed under collision-free names, routed back to their server. */
import type { JsonObject, ServerSnapshot } from '../core/types.js';
import { assignServedNames } from '../core/served-names.js';

export interface Routes {
  prompts: { served: JsonObject; server: string; name: string }[];
  promptByName: Map<string, { server: string; name: string }>;
  resources: JsonObject[];
  templates: JsonObject[];
  /** uri → server (the first server, by name, that lists it). */
  resourceServer: Map<string, string>;
  templateMatchers: { server: string; pattern: RegExp }[];
}

const byName = (a: ServerSnapshot, b: ServerSnapshot): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** An RFC 6570 template as a regular expression: `{x}` one path segment, `{+x}`/`{#x}` anything, others loose. */
export function templatePattern(template: string): RegExp {
  let out = '';
  let last = 0;
  for (const m of template.matchAll(/\{([^}]*)\}/g)) {
    out += template.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const op = m[1]?.[0];
    out += op === '+' || op === '#' ? '.*' : op === '?' || op === '&' ? '(?:[?&].*)?' : '[^/?#]*';
    last = (m.index ?? 0) + m[0].length;
  }
  out += template.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${out}$`);
}

export function buildRoutes(servers: readonly ServerSnapshot[], key: string): Routes {
  const sorted = [...servers].filter((s) => s.status === 'ok').sort(byName);
  const promptItems = sorted.flatMap((s) =>
    (s.prompts ?? []).flatMap((p) => (typeof p.name === 'string' ? [{ server: s.name, name: p.name, prompt: p }] : [])),
  );
  const names = assignServedNames(promptItems, key);
  const prompts = promptItems.map((p, i) => ({
    served: { ...p.prompt, name: names[i] ?? p.name },
    server: p.server,
    name: p.name,
  }));
  const resourceServer = new Map<string, string>();
  const resources: JsonObject[] = [];
  const templates: JsonObject[] = [];
  const templateMatchers: Routes['templateMatchers'] = [];
  for (const s of sorted) {
    for (const r of s.resources ?? []) {
      if (typeof r.uri !== 'string' || resourceServer.has(r.uri)) continue;
      resourceServer.set(r.uri, s.name);
      resources.push(r);
    }
    for (const t of s.resourceTemplates ?? []) {
      if (typeof t.uriTemplate !== 'string') continue;
      templates.push(t);
      templateMatchers.push({ server: s.name, pattern: templatePattern(t.uriTemplate) });
    }
  }
  return {
    prompts,
    promptByName: new Map(prompts.map((p) => [p.served.name, { server: p.server, name: p.name }])),
    resources,
    templates,
    resourceServer,
    templateMatchers,
  };
}

/** The server a resource uri belongs to: listed, else matching a template, else the only server with resources. */
export function serverForUri(routes: Routes, servers: readonly ServerSnapshot[], uri: string): string | undefined {
  const listed = routes.resourceServer.get(uri);
  if (listed) return listed;
  const t = routes.templateMatchers.find((m) => m.pattern.test(uri));
  if (t) return t.server;
  const withResources = servers.filter((s) => s.resources !== undefined || s.resourceTemplates !== undefined);
  return withResources.length === 1 ? withResources[0]?.name : undefined;
}

/**
 * The audit per client: a machine has several clients, each loading its own servers, and no request carries all
 * of them. Totals are added up per client, duplicate tools are looked for within one client, and a client's
 * documented tool limit is checked against the tools that client would send. Pure.
 */
import type { ClientId, ServerSnapshot, ToolSnapshot } from '../types.js';
import { FINDING_SEVERITY, AUDIT_LIMITS, type Finding } from './findings.js';

/**
 * Tool limits the clients document (only clients that document one). A client over its limit drops tools or
 * refuses the request, so going over is a finding of its own.
 */
export const CLIENT_TOOL_LIMITS: Partial<Record<ClientId, { max: number; source: string }>> = {
  // Cursor's MCP docs ("Tool quantity", https://docs.cursor.com/context/model-context-protocol): "Cursor will only
  // send the first 40 tools to the Agent"; the tools past the first 40 are out of the model's reach.
  cursor: { max: 40, source: 'https://docs.cursor.com/context/model-context-protocol' },
  // Windsurf's Cascade MCP docs ("Configuring MCP tools", https://docs.windsurf.com/windsurf/cascade/mcp):
  // "Cascade has a limit of 100 total tools that it has access to at any given time."
  windsurf: { max: 100, source: 'https://docs.windsurf.com/windsurf/cascade/mcp' },
  // VS Code's former 128-tools-per-request limit was lifted (tools past the core set are deferred), and Claude
  // Code, Claude Desktop, Gemini CLI, Cline, Roo and Codex document none: no entry, no finding.
};

/** One client's servers, as the audit measured them (a server defined differently in two clients is two snapshots). */
export interface ClientServers {
  client: string;
  label: string;
  servers: readonly ServerSnapshot[];
}

/** What `audit --json` lists under `clients` (one entry per client that loads at least one server). */
export interface AuditClient {
  client: string;
  label: string;
  /** Names of the servers this client loads, in its precedence order. */
  servers: string[];
  /** Servers that failed to start or answer (their tools are not in this client's figures). */
  failed: string[];
  toolCount: number;
  tokens: { full: number; lossless: number; compact: number; minimal: number };
  instructionsTokens: number;
  /** The client's documented tool limit, when it documents one. */
  toolLimit?: number;
}

/** Pseudo-client for servers no client config owns (--stdio/--url, --demo, mcp-smart.config.json, generic files). */
export const OTHER_SOURCES = { client: 'other', label: 'other sources' } as const;

type Counted = Pick<AuditClient, 'toolCount' | 'tokens' | 'instructionsTokens'>;

/** Adds up the figures of each client's servers; `figures` answers for one measured server snapshot. */
export function clientTotals(
  groups: readonly ClientServers[],
  figures: (server: ServerSnapshot) => Counted | undefined,
): AuditClient[] {
  return groups.map((g) => {
    const out: AuditClient = {
      client: g.client,
      label: g.label,
      servers: g.servers.map((s) => s.name),
      failed: g.servers.filter((s) => s.status === 'error').map((s) => s.name),
      toolCount: 0,
      tokens: { full: 0, lossless: 0, compact: 0, minimal: 0 },
      instructionsTokens: 0,
    };
    for (const s of g.servers) {
      const f = figures(s);
      if (!f) continue;
      out.toolCount += f.toolCount;
      out.instructionsTokens += f.instructionsTokens;
      out.tokens.full += f.tokens.full;
      out.tokens.lossless += f.tokens.lossless;
      out.tokens.compact += f.tokens.compact;
      out.tokens.minimal += f.tokens.minimal;
    }
    const limit = CLIENT_TOOL_LIMITS[g.client as ClientId];
    if (limit) out.toolLimit = limit.max;
    return out;
  });
}

/** A tool name with case and separators folded: `read_file`, `readFile` and `read-file` are one name. */
export function foldedName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9\p{L}\p{N}]+/gu, '');
}

/** Description and input schema: two tools with the same definition under different names do the same thing. */
function definitionKey(tool: ToolSnapshot): string | undefined {
  const description = (tool.description ?? '').trim();
  if (description.length < 20) return undefined; // short or missing descriptions say too little to call a match
  return `${description}\u0000${JSON.stringify(tool.inputSchema ?? null)}`;
}

/**
 * Findings per client: same-named tools on two of its servers (DUPLICATE_TOOL_NAME), near-identical ones — names
 * equal but for case and separators, or the same description and schema under another name (DUPLICATE_TOOL_SIMILAR)
 * —, its tool count over its documented limit (CLIENT_TOOL_LIMIT), else over the general guideline (TOO_MANY_TOOLS).
 */
export function clientFindings(groups: readonly ClientServers[]): Finding[] {
  const out: Finding[] = [];
  for (const g of groups) {
    const ok = g.servers.filter((s) => s.status === 'ok');
    const where = g.client === OTHER_SOURCES.client ? 'in the servers no client config lists' : `in ${g.label}`;
    const add = (finding: Omit<Finding, 'severity'>): void => {
      out.push({ ...finding, severity: FINDING_SEVERITY[finding.code], client: g.client });
    };
    const exact = new Map<string, string[]>();
    const folded = new Map<string, { server: string; tool: string }[]>();
    const defined = new Map<string, { server: string; tool: string }[]>();
    for (const s of ok) {
      for (const t of s.tools) {
        exact.set(t.name, [...(exact.get(t.name) ?? []), s.name]);
        const f = foldedName(t.name);
        folded.set(f, [...(folded.get(f) ?? []), { server: s.name, tool: t.name }]);
        const d = definitionKey(t);
        if (d !== undefined) defined.set(d, [...(defined.get(d) ?? []), { server: s.name, tool: t.name }]);
      }
    }
    for (const [name, servers] of exact) {
      const distinct = [...new Set(servers)];
      if (distinct.length < 2) continue;
      add({
        code: 'DUPLICATE_TOOL_NAME',
        server: distinct[0] as string,
        tool: name,
        message: `Tool "${name}" is offered by ${distinct.length} servers ${where}: ${distinct.join(', ')}.`,
        value: distinct.length,
      });
    }
    const reported = new Set<string>();
    const similar = (members: { server: string; tool: string }[], why: string): void => {
      // Only pairs across servers with different names count here: equal names are DUPLICATE_TOOL_NAME above.
      const servers = new Set(members.map((m) => m.server));
      const names = new Set(members.map((m) => m.tool));
      if (servers.size < 2 || names.size < 2) return;
      const ids = [...new Set(members.map((m) => `${m.server}.${m.tool}`))].sort();
      const key = ids.join('\u0000');
      if (reported.has(key)) return;
      reported.add(key);
      const first = members[0]!;
      add({
        code: 'DUPLICATE_TOOL_SIMILAR',
        server: first.server,
        tool: first.tool,
        message: `${ids.join(', ')} ${why} ${where}; the model may pick either.`,
        value: ids.length,
      });
    };
    for (const members of folded.values()) similar(members, 'differ only in case or separators');
    for (const members of defined.values()) similar(members, 'have the same description and input schema');

    const total = ok.reduce((n, s) => n + s.tools.length, 0);
    const limit = CLIENT_TOOL_LIMITS[g.client as ClientId];
    if (limit && total > limit.max) {
      add({
        code: 'CLIENT_TOOL_LIMIT',
        server: '*',
        message: `${g.label} loads ${total} tools; it documents a limit of ${limit.max} (${limit.source}), so some are never offered to the model.`,
        value: total,
        limit: limit.max,
      });
    } else if (total > AUDIT_LIMITS.maxTools) {
      add({
        code: 'TOO_MANY_TOOLS',
        server: '*',
        message: `${total} tools ${where} (limit ${AUDIT_LIMITS.maxTools}); selection accuracy drops beyond 30–50 tools.`,
        value: total,
        limit: AUDIT_LIMITS.maxTools,
      });
    }
  }
  return out;
}

/** The audit: tokens per server and tool at every condense level, the meta alternative, and findings. */
import type { LoadHintSummary } from '../hints/summary.js';
import type { MissingServer } from '../budget/missing.js';
import { runSteps, type Steps } from '../steps.js';
import { condenseToolLevels, metaTools } from '../condense/index.js';
import { renderTool, type RenderStyle, type TokenCounter } from '../tokens/index.js';
import { renderServerOverhead } from '../tokens/render.js';
import type { AnthropicFigures } from '../tokens/anthropic.js';
import type { Encoding, ServerSnapshot, ServerStatus, ToolSnapshot } from '../types.js';
import { auditFindings, serverToolFindings, sortFindings, type Finding } from './findings.js';
import { clientFindings, clientTotals, type AuditClient, type ClientServers } from './clients.js';

export * from './findings.js';
export * from './clients.js';

export const AUDIT_LEVELS = ['full', 'lossless', 'compact', 'minimal'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];
export type LevelTokens = Record<AuditLevel, number>;

export interface AuditTool {
  id: string;
  name: string;
  tokens: LevelTokens;
}

export interface AuditServer {
  name: string;
  status: ServerStatus;
  error?: string;
  toolCount: number;
  tokens: LevelTokens;
  /** Server instructions, counted on their own (clients add them beside the tool list). */
  instructionsTokens: number;
  tools: AuditTool[];
}

export interface AuditResult {
  encoding: Encoding;
  render: RenderStyle;
  window: number;
  servers: AuditServer[];
  totals: { toolCount: number; tokens: LevelTokens & { meta: number }; instructionsTokens: number };
  findings: Finding[];
  /** Exact Claude figures, added by `audit --anthropic-count`. */
  anthropic?: AnthropicFigures;
  /** Tools the client's config hides from the model: listed apart, not in the totals. */
  hidden?: HiddenTools[];
  /**
   * Servers the files list but that were not started: gated by their client (`status` is the client's words,
   * e.g. "pending approval in Claude Code") or pending mcp-smart's own project approval. Not in the totals.
   */
  notLoaded?: { server: string; source: string; status: string }[];
  /** Per client: the servers each client loads and their totals (when the servers came from client configs). */
  clients?: AuditClient[];
  /** With a usage store: what serve's load hints would be (which tools always loaded, what they cost). */
  loadHints?: LoadHintSummary;
  /** The committed baseline compared with (`--baseline`, the config's, or mcp-smart.lock.json when present). */
  baseline?: string;
  /** Its servers this run did not reach although still defined (each also a SERVER_MISSING finding). */
  missing?: MissingServer[];
}

export interface CountOptions {
  window: number;
  /**
   * Each client's servers: totals per client, duplicates and tool limits checked within a client. Snapshots that
   * are not among the rendered servers (a client's own definition of a name another client defines too) are
   * answered by `figures`.
   */
  clients?: readonly ClientServers[];
  figures?: (server: ServerSnapshot) => Pick<AuditServer, 'toolCount' | 'tokens' | 'instructionsTokens'> | undefined;
  /** Figures and findings of the servers renderAudit skipped (the audit cache). */
  known?: (server: ServerSnapshot) => KnownServer | undefined;
  /** The meta-tools' tokens, when renderAudit left them out. */
  metaTokens?: number;
  /** Called with each server counted here (not known), so the caller can cache it. */
  onCounted?: (server: ServerSnapshot, entry: KnownServer) => void;
  /** Called before each server is counted (for a progress line). */
  onServer?: (done: number, total: number, server: string) => void;
}

export interface HiddenTools {
  server: string;
  tools: { id: string; name: string; tokens: number }[];
  tokens: number;
}

export const META_SERVER_NAME = 'mcp-smart';

interface RenderedTool {
  tool: ToolSnapshot;
  texts: Record<AuditLevel, string>;
}

interface RenderedServer {
  server: ServerSnapshot;
  tools: RenderedTool[];
  overhead: string;
  /** Not rendered: its figures and tool findings come from the audit cache (CountOptions.known). */
  known?: true;
  /** Where this server's texts end in RenderedAudit.texts (for a progress line while they are counted). */
  textsEnd: number;
}

/** What the audit cache keeps for a server: its figures and its tool-level findings. */
export interface KnownServer {
  server: AuditServer;
  findings: Finding[];
}

export interface RenderOptions {
  /** Servers whose figures are known already (the audit cache): neither condensed nor rendered. */
  skip?: (server: ServerSnapshot) => boolean;
  /** Leave out the meta-tools (their count is known already). */
  noMeta?: boolean;
  /** Called after each server is rendered (for a progress line). */
  onServer?: (done: number, total: number, server: string) => void;
}

/** Every text the audit counts, rendered once; `texts` lets a cache-backed counter be prepared. */
export interface RenderedAudit {
  style: RenderStyle;
  servers: RenderedServer[];
  meta: string[];
  texts: string[];
}

/** Renders each tool at each level (and the meta-tools) in the given style. */
export function renderAudit(
  servers: readonly ServerSnapshot[],
  style: RenderStyle,
  opts: RenderOptions = {},
): RenderedAudit {
  return runSteps(renderAuditSteps(servers, style, opts));
}

/** renderAudit as steps, one per tool condensed and rendered (see core/steps.ts). */
export function* renderAuditSteps(
  servers: readonly ServerSnapshot[],
  style: RenderStyle,
  opts: RenderOptions = {},
): Steps<RenderedAudit> {
  const texts: string[] = [];
  const rendered: RenderedServer[] = [];
  for (const [index, server] of servers.entries()) {
    opts.onServer?.(index, servers.length, server.name);
    if (server.status === 'ok' && opts.skip?.(server) === true) {
      rendered.push({ server, tools: [], overhead: '', known: true, textsEnd: texts.length });
      continue;
    }
    const tools = server.status === 'ok' ? server.tools : [];
    const out: RenderedServer['tools'] = [];
    for (const tool of tools) {
      const t = {} as Record<AuditLevel, string>;
      const levels = condenseToolLevels(tool);
      for (const level of AUDIT_LEVELS) {
        t[level] = renderTool(levels[level], style);
        texts.push(t[level]);
      }
      if (tool.description) texts.push(tool.description);
      out.push({ tool, texts: t });
      yield;
    }
    const overhead = tools.length === 0 ? '' : renderServerOverhead(server.name, tools.length, style);
    texts.push(overhead);
    if (server.instructions) texts.push(server.instructions);
    rendered.push({ server, tools: out, overhead, textsEnd: texts.length });
  }
  const metaList = opts.noMeta === true ? [] : metaTools();
  const meta =
    opts.noMeta === true
      ? []
      : [...metaList.map((t) => renderTool(t, style)), renderServerOverhead(META_SERVER_NAME, metaList.length, style)];
  texts.push(...meta);
  return { style, servers: rendered, meta, texts };
}

const zero = (): LevelTokens => ({ full: 0, lossless: 0, compact: 0, minimal: 0 });

/** Counts a rendered audit. Server figures are the sum of their tools plus the rendering's heading. */
export function countAudit(rendered: RenderedAudit, counter: TokenCounter, opts: CountOptions): AuditResult {
  const servers = rendered.servers.map(({ server, tools, overhead, known }, index): AuditServer => {
    opts.onServer?.(index, rendered.servers.length, server.name);
    if (known) {
      const entry = opts.known?.(server);
      if (!entry) throw new Error(`audit: no known figures for the skipped server ${server.name}`);
      return entry.server;
    }
    const overheadTokens = counter.count(overhead);
    const serverTokens = zero();
    const auditTools = tools.map(({ tool, texts }) => {
      const tokens = zero();
      for (const level of AUDIT_LEVELS) {
        tokens[level] = counter.count(texts[level]);
        serverTokens[level] += tokens[level];
      }
      return { id: `${server.name}.${tool.name}`, name: tool.name, tokens };
    });
    for (const level of AUDIT_LEVELS) if (tools.length > 0) serverTokens[level] += overheadTokens;
    const out: AuditServer = {
      name: server.name,
      status: server.status,
      toolCount: auditTools.length,
      tokens: serverTokens,
      instructionsTokens: 0,
      tools: auditTools,
    };
    if (server.status === 'error') out.error = server.error ?? 'unknown error';
    out.instructionsTokens = server.instructions ? counter.count(server.instructions) : 0;
    // Keep the contract's key order: error before toolCount.
    const { name, status, error, ...rest } = out;
    return error === undefined ? { name, status, ...rest } : { name, status, error, ...rest };
  });
  const totals = { toolCount: 0, tokens: { ...zero(), meta: 0 }, instructionsTokens: 0 };
  for (const s of servers) {
    totals.toolCount += s.toolCount;
    totals.instructionsTokens += s.instructionsTokens;
    for (const level of AUDIT_LEVELS) totals.tokens[level] += s.tokens[level];
  }
  totals.tokens.meta = opts.metaTokens ?? rendered.meta.reduce((n, t) => n + counter.count(t), 0);
  const groups = opts.clients;
  const descriptionTokens = (tool: ToolSnapshot): number => counter.count(tool.description ?? '');
  const fresh = new Map<ServerSnapshot, Finding[]>();
  const findings = auditFindings({
    servers: rendered.servers.map((s) => s.server),
    descriptionTokens,
    perClient: groups !== undefined,
    known: (s) => {
      const entry = opts.known?.(s);
      if (entry) return entry.findings;
      const own = serverToolFindings(s, { descriptionTokens });
      fresh.set(s, own);
      return own;
    },
  });
  if (opts.onCounted)
    rendered.servers.forEach((r, i) => {
      if (!r.known && r.server.status === 'ok')
        opts.onCounted!(r.server, { server: servers[i]!, findings: fresh.get(r.server) ?? [] });
    });
  const result: AuditResult = {
    encoding: counter.encoding,
    render: rendered.style,
    window: opts.window,
    servers,
    totals,
    findings,
  };
  if (groups !== undefined) {
    const measured = new Map(rendered.servers.map((s, i) => [s.server, servers[i]!]));
    result.clients = clientTotals(groups, (s) => measured.get(s) ?? opts.figures?.(s));
    result.findings = sortFindings([...findings, ...clientFindings(groups)]);
  }
  return result;
}

/** The whole audit in one call (the counter must be able to count every text). */
export function buildAudit(
  servers: readonly ServerSnapshot[],
  counter: TokenCounter,
  opts: { style?: RenderStyle; window?: number } = {},
): AuditResult {
  return countAudit(renderAudit(servers, opts.style ?? 'json'), counter, { window: opts.window ?? 200_000 });
}

/** The `n` most expensive tools across servers (full tokens, ties by id). */
export function topTools(result: AuditResult, n: number): AuditTool[] {
  return result.servers
    .flatMap((s) => s.tools)
    .sort((a, b) => b.tokens.full - a.tokens.full || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, n);
}

/** The `audit` use case: tokens per server and tool at every condense level, findings, optional exact Claude figures. */
import {
  atOrAbove,
  countAudit,
  OTHER_SOURCES,
  renderAuditSteps,
  sortFindings,
  type AuditResult,
  type AuditServer,
  type ClientServers,
  type HiddenTools,
  type KnownServer,
  type Severity,
} from '../../core/audit/index.js';
import { openAuditCache } from '../../core/audit/cache.js';
import { GATE_LABEL } from '../../core/config/client-trust.js';
import {
  hiddenSnapshots,
  hiddenToolsBySnapshot,
  sentSnapshots,
  visibilityRules,
} from '../../core/config/tool-filter.js';
import {
  ANTHROPIC_DEFAULT_MODEL,
  countToolsWithAnthropic,
  type AnthropicFigures,
} from '../../core/tokens/anthropic.js';
import type { RenderStyle } from '../../core/tokens/index.js';
import { errorText, remoteFailure } from '../../process/errors.js';
import { scrubMessage } from '../../process/secrets.js';
import { computing, countPausing, runStepsPausing } from '../../process/signals.js';
import { countOf } from '../../reporters/format.js';
import type { ServerDefinition, ServerSnapshot } from '../../core/types.js';
import type { NextStep } from '../../core/next-step.js';
import type { AppContext } from '../services/context.js';
import { nextStepFor } from '../services/next-step-state.js';
import { counterForTexts } from '../services/counter.js';
import { loadHintRules, summarizeLoadHints } from '../../core/hints/summary.js';
import { readRankingUsage } from '../services/usage.js';
import { createWorkProgress, debugPhase } from '../services/progress.js';
import { connectDefinitions } from '../services/connect-definitions.js';
import { baselineMissing, requiredBaseline } from './audit-missing.js';
import { loadSetup, serverFailureCode, type Setup } from '../services/setup.js';

export interface AuditOptions {
  failOn?: Severity;
  window: number;
  render: RenderStyle;
  /** Set when --anthropic-count asked for exact Claude figures (checked before connecting). */
  anthropicKey?: string;
  /** --baseline: compare with this baseline (must exist); else the config's or mcp-smart.lock.json when present. */
  baseline?: string;
}

export type AuditOutput = AuditResult;

export interface AuditOutcome {
  result: AuditOutput;
  /** The snapshots counted (tools the client hides left out), for reports that need their sources. */
  servers: ServerSnapshot[];
  exitCode: number;
  /** The step to suggest after the report (over budget, no baseline, a client's servers to adopt, …). */
  next?: NextStep;
}

export async function auditServers(ctx: AppContext, options: AuditOptions): Promise<AuditOutcome> {
  const { io, global } = ctx;
  const given = await requiredBaseline(ctx, options.baseline);
  const loaded = await loadSetup(global, io);
  // Count only what the client sends; tools its config hides are counted apart.
  const servers = sentSnapshots(loaded.servers, loaded.hidden ?? {});
  const view = await clientView(ctx, loaded, servers);
  // Servers audited before with the same tools come from the audit cache: not condensed, rendered or hashed again.
  const cacheDir = loaded.paths.activeCacheDir;
  const cache = cacheDir ? await openAuditCache(cacheDir, global.encoding, options.render) : undefined;
  const { result, counter } = await computing(async (pause) => {
    const tools = servers.reduce((n, s) => n + (s.status === 'ok' ? s.tools.length : 0), 0);
    debugPhase(ctx, `counting ${countOf(tools, 'tool')} at every condense level`);
    const rendering = createWorkProgress(io, global.format, 'Condensing');
    const rendered = await runStepsPausing(
      renderAuditSteps(servers, options.render, {
        ...(cache ? { skip: (s: ServerSnapshot) => cache.get(s) !== undefined, noMeta: cache.meta !== undefined } : {}),
        onServer: (done, total, name) => rendering.step(done, total, name),
      }),
      pause,
    );
    rendering.done();
    const hiddenSnaps = hiddenSnapshots(loaded.servers, loaded.hidden ?? {});
    const hiddenRendered = await runStepsPausing(
      renderAuditSteps(hiddenSnaps, options.render, { noMeta: true }),
      pause,
    );
    const ownRendered = await runStepsPausing(
      renderAuditSteps(view?.own ?? [], options.render, { noMeta: true }),
      pause,
    );
    const texts = [...rendered.texts, ...hiddenRendered.texts, ...ownRendered.texts];
    const counter = await counterForTexts(global.encoding, cacheDir, texts);
    const counting = createWorkProgress(io, global.format, 'Counting tokens');
    // Shown per server: the texts of rendered.servers[i] end at its textsEnd (hidden and own ones come after).
    let at = 0;
    await countPausing(counter, texts, pause, (done) => {
      const list = rendered.servers;
      while (at < list.length - 1 && done >= list[at]!.textsEnd) at++;
      if (list.length > 0) counting.step(at, list.length, list[at]!.server.name);
    });
    counting.done();
    // A client's own definition of a name another client defines too: measured, but only in that client's view.
    const own = countAudit(ownRendered, counter, { window: options.window });
    const ownFigures = new Map(
      ownRendered.servers.map((s, i): [ServerSnapshot, AuditServer] => [s.server, own.servers[i]!]),
    );
    const result: AuditOutput = countAudit(rendered, counter, {
      window: options.window,
      ...(view ? { clients: view.groups, figures: (s: ServerSnapshot) => ownFigures.get(s) } : {}),
      ...(cache
        ? {
            known: (s: ServerSnapshot) => cache.get(s),
            ...(cache.meta !== undefined ? { metaTokens: cache.meta } : {}),
            onCounted: (s: ServerSnapshot, entry: KnownServer) => cache.set(s, entry),
          }
        : {}),
    });
    if (view && view.own.length > 0) {
      // Their tool-level findings name the client, since the same server name means another server elsewhere.
      const clientOf = new Map(
        view.groups.flatMap((g) => g.servers.filter((s) => ownFigures.has(s)).map((s) => [s.name, g.client])),
      );
      const extra = own.findings.filter((f) => f.tool !== undefined || f.code === 'SERVER_FAILED');
      result.findings = sortFindings([
        ...result.findings,
        ...extra.map((f) => ({ ...f, client: clientOf.get(f.server) ?? OTHER_SOURCES.client })),
      ]);
    }
    const hidden: HiddenTools[] = countAudit(hiddenRendered, counter, { window: options.window }).servers.map((s) => ({
      server: s.name,
      tools: s.tools.map((t) => ({ id: t.id, name: t.name, tokens: t.tokens.full })),
      tokens: s.tools.reduce((n, t) => n + t.tokens.full, 0),
    }));
    if (hidden.length > 0) result.hidden = hidden;
    const notLoaded = gatedServers(loaded.definitions?.servers ?? []);
    if (notLoaded.length > 0) result.notLoaded = notLoaded;
    return { result, counter };
  });
  if (cache) {
    cache.setMeta(result.totals.tokens.meta);
    await cache.flush();
  }
  await counter.flush?.();

  await addLoadHints(ctx, loaded, result, (t) => counter.count(t));
  // Servers of the committed baseline this run did not reach: a finding each, never a silent shrinkage.
  const base = await baselineMissing(ctx, loaded, options.baseline, given);
  if (base) {
    result.baseline = base.baseline;
    result.missing = base.missing;
    result.findings = sortFindings([...result.findings, ...base.findings]);
  }

  let remoteFailed = 0;
  const apiKey = options.anthropicKey;
  if (apiKey) {
    const model = io.env.ANTHROPIC_COUNT_MODEL || ANTHROPIC_DEFAULT_MODEL;
    const figures: AnthropicFigures = { model, servers: [], total: 0 };
    try {
      for (const s of servers.filter((x) => x.status === 'ok')) {
        const tokens = await countToolsWithAnthropic(s.tools, {
          apiKey,
          model,
          fetch: (url, init) => fetch(url, init),
        });
        figures.servers.push({ name: s.name, tokens });
        figures.total += tokens;
      }
      result.anthropic = figures;
    } catch (e) {
      // The local report stands on its own: a failed request is a reported problem (exit 3), not a lost run.
      const failure = remoteFailure(e, 'Anthropic token counting');
      io.stderr(`warning: ${scrubMessage(failure.message)}; the local figures below are complete\n`);
      remoteFailed = failure.exitCode;
    }
  }
  const failOn = options.failOn;
  const failed = failOn !== undefined && result.findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
  const measured = [...servers, ...(view?.own ?? [])];
  const next = nextStepFor(io, {
    command: 'audit',
    config: loaded.config,
    servers: servers.length,
    ...(loaded.definitions ? { clients: loaded.definitions.clients } : {}),
    ...(global.client ? { only: global.client } : {}),
    names: global.server,
    audit: { tokens: result.totals.tokens.full, window: options.window },
  });
  const exitCode = Math.max(failed, serverFailureCode(measured), remoteFailed);
  return { result, servers, exitCode, ...(next ? { next } : {}) };
}

interface ClientView {
  groups: ClientServers[];
  /** Snapshots of definitions a client loads under a name another client's definition won in the merged setup. */
  own: ServerSnapshot[];
}

/**
 * Each client's servers as snapshots (its own precedence, from definitions.clients), plus a group for servers no
 * client config lists. A client whose definition of a name differs from the one measured (another client's
 * same-named server won the merge) gets its own definition connected too: it still loads it. Undefined when the
 * servers did not come from client configs (snapshots, or only --stdio/--config files no client owns).
 */
async function clientView(ctx: AppContext, loaded: Setup, servers: ServerSnapshot[]): Promise<ClientView | undefined> {
  const defs = loaded.definitions;
  if (!defs || defs.clients.length === 0) return undefined;
  const { io, global } = ctx;
  const byName = new Map(servers.map((s) => [s.name, s]));
  const winners = new Map(defs.servers.map((d) => [d.name, d]));
  const wanted = (d: ServerDefinition): boolean =>
    d.enabled && byName.has(d.name) && (global.server.length === 0 || global.server.includes(d.name));
  const missing: { client: string; def: ServerDefinition }[] = [];
  const planned = defs.clients.map((c) => {
    const members = c.servers.filter(wanted).map((d): ServerSnapshot | ServerDefinition => {
      if (winners.get(d.name)?.source === d.source) return byName.get(d.name)!;
      missing.push({ client: c.client, def: d });
      return d;
    });
    return { client: c.client, label: c.label, members };
  });
  const inAClient = new Set(
    defs.clients.flatMap((c) => c.servers.filter(wanted).map((d) => `${d.source}\u0000${d.name}`)),
  );
  const others = servers.filter((s) => {
    const d = winners.get(s.name);
    return d === undefined || d.client === undefined || !inAClient.has(`${d.source}\u0000${d.name}`);
  });
  let own: ServerSnapshot[] = [];
  if (missing.length > 0) {
    const extraDefs = missing.map((m) => m.def);
    const connected = await connectDefinitions(global, io, extraDefs, {
      config: loaded.config,
      paths: loaded.paths,
      // The cache note is said once a run: loadSetup said it already when any server came from the cache.
      cacheNote: !loaded.servers.some((s) => s.cached),
    });
    own = sentSnapshots(
      connected,
      hiddenToolsBySnapshot(connected, visibilityRules(extraDefs, loaded.config.serve, loaded.configFile)),
    );
  }
  const ownOf = new Map(missing.map((m, i) => [m.def, own[i]!]));
  const groups: ClientServers[] = planned.map((p) => ({
    client: p.client,
    label: p.label,
    servers: p.members.map((m) => ('status' in m ? m : ownOf.get(m)!)),
  }));
  if (others.length > 0) groups.push({ ...OTHER_SOURCES, servers: others });
  return { groups: groups.filter((g) => g.servers.length > 0), own };
}

/** Servers kept from loading by a client trust gate or by mcp-smart's own project approval, in the client's words. */
function gatedServers(defs: readonly ServerDefinition[]): NonNullable<AuditResult['notLoaded']> {
  return defs
    .filter((d) => !d.enabled && (d.gate !== undefined || d.pendingTrust === true))
    .map((d) => ({
      server: d.name,
      source: d.source,
      status: d.pendingTrust === true ? 'pending approval in mcp-smart (mcp-smart trust)' : GATE_LABEL[d.gate!],
    }));
}

/**
 * With a usage store (the config's `store`, else the default file when it exists): which tools serve would mark
 * alwaysLoad and what the hints cost. The audit stands without it: a store that cannot be read is a warning.
 */
async function addLoadHints(
  ctx: AppContext,
  loaded: Setup,
  result: AuditOutput,
  count: (t: string) => number,
): Promise<void> {
  const { io } = ctx;
  const rules = loadHintRules(loaded.config.serve);
  if (!rules) return;
  try {
    const read = await readRankingUsage({
      store: undefined,
      configStore: loaded.config.store,
      defaultStore: loaded.paths.usageStore,
      now: Date.now(),
      cwd: io.cwd,
      env: io.env,
      warn: (w) => io.stderr(`warning: ${w}\n`),
      missingStore: 'tolerate',
    });
    if (!read) return;
    const tokens = new Map(result.servers.flatMap((s) => s.tools.map((t) => [t.id, t.tokens.full] as const)));
    const ok = loaded.servers.filter((s) => s.status === 'ok');
    result.loadHints = summarizeLoadHints(ok, loaded.config.serve, read.usage, rules, {
      tool: (t, server) => tokens.get(`${server}.${t.name}`) ?? 0,
      text: count,
    });
  } catch (e) {
    io.stderr(`warning: load hints not shown: ${scrubMessage(errorText(e))}\n`);
  }
}

/**
 * The state `serve` shares across client sessions: the servers behind (lazy pool), their known lists,
 * the served view, the ranking index, and the learner. Client sessions (sdk-server.ts) call into it.
 */
import { secretValues } from '../core/connect/secrets.js';
import { hybridIndex } from '../app/rank.js';
import { visibilityRules, type VisibilityRules } from '../core/config/tool-filter.js';
import { fuseRankings, patternsFromConfig, rankTools, type DiscoverIndex } from '../core/discover/index.js';
import { newestRecording } from '../core/session/usage-store.js';
import { SmartError, errorText, isSmartError } from '../errors.js';
import type { ServerSnapshot, SmartConfig, UsageStats } from '../types.js';
import { buildServedView, type CatalogEntry, type ServeLevel, type ServeMode, type ServedView } from './catalog.js';
import type { Counting } from './deps.js';
import type { LoadHintRules } from '../core/hints/load-hints.js';
import { FileUsageStore } from '../core/store/file.js';
import { cloneUsage } from '../core/session/usage.js';
import type { UsageStore } from '../core/store/types.js';
import { Learner } from './learn.js';
import {
  ArgumentValidator,
  argumentsObject,
  describeEntry,
  findCandidate,
  isReadOnly,
  listEntries,
  resolveTool,
  textResult,
} from './meta.js';
import { unattendedAnswer } from '../core/connect/unattended.js';
import { Declaration, relistWith } from './declared.js';
import { budgetFindAnswer, findMaxTokens, type BudgetedAnswer, type FindCandidate } from './find-budget.js';
import { ServerPool, type PoolOptions } from './pool.js';
import type { ServeSetup } from './setup.js';
import { mapLimited, SERVER_START_CONCURRENCY } from '../core/map-limited.js';
import { boundedInstructions } from '../core/audit/findings.js';

export interface RuntimeOptions {
  setup: ServeSetup;
  mode: ServeMode;
  level: ServeLevel;
  limit: number;
  key: string;
  activate: boolean;
  counting: Counting;
  usage: UsageStats;
  /** Learn into the usage store (default on). */
  learn: boolean;
  /** The label learned calls are attributed to (undefined: none). */
  user?: string | undefined;
  /** Load hints on pass-through tools (undefined: off). */
  loadHints?: LoadHintRules;
  /** The usage store learning writes to (the command opens and closes it); default: the file setup names. */
  store?: UsageStore;
  record?: string;
  spawnTimeoutMs: number;
  callTimeoutMs: number;
  log: (text: string) => void;
  now: () => number;
  /** Monotonic ms for latency. */
  clock: () => number;
  pool?: Partial<PoolOptions>;
}

export type ToolResult = Record<string, unknown>;

/** A connected client that can answer a server's request ("elicitation", "sampling" in its capabilities). */
export interface Asker {
  capabilities: Record<string, unknown>;
  ask: (method: string, params: unknown, signal: AbortSignal) => Promise<Record<string, unknown>>;
}

/** Hooks a client session gives the runtime for one call. */
export interface CallContext {
  signal: AbortSignal;
  /**
   * The calling client, asked in the context of this call: over Streamable HTTP its request travels on the
   * call's own response stream (relatedRequestId), where a client waiting for the call's answer reads it.
   */
  asker?: Asker;
  /** Progress from the server behind, to be sent to the client under its own token. */
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
  _meta?: Record<string, unknown>;
}

const META_EXTRA_KEYS = new Set(['progressToken']);
/** find_tool ranks at most this many phrasings of a need (its intent and `queries`). */
const MAX_PHRASINGS = 5;

export class ServeRuntime {
  readonly pool: ServerPool;
  readonly known: Map<string, ServerSnapshot>;
  view: ServedView;
  readonly learner: Learner;
  private index?: DiscoverIndex;
  private indexing?: Promise<DiscoverIndex>;
  private readonly validator = new ArgumentValidator();
  private readonly activated: string[] = [];
  private readonly config: SmartConfig;
  /** The one visibility rule's inputs: what audit and budget leave out, serve never lists, finds or calls. */
  private readonly rules: VisibilityRules;
  /** Each connected client's callback for a changed tool list (notifications/tools/list_changed). */
  readonly toolsChanged = new Set<() => void>();
  /** Called for notifications a server behind sends that clients should see (resources/updated). */
  onServerNotification?: (server: string, method: string, params: Record<string, unknown> | undefined) => void;
  /**
   * Connected clients that can answer a server's request, by capability ("elicitation", "sampling").
   * Elicitation and sampling are declared to the servers behind only when a client declared them.
   */
  readonly askers = new Map<object, Asker>();
  /** The calls in flight per server behind, oldest first: a server's request is tied to one of them. */
  private readonly calls = new Map<string, CallContext[]>();
  /** What the clients declared (roots, elicitation, sampling), declared in turn to the servers behind. */
  readonly declaration = new Declaration();
  /** The declaration the known lists were taken with. */
  private listedWith = '{}';
  /** Re-listing for a new declaration; tools/list and find_tool wait for it. */
  private redeclaring?: Promise<void>;

  /** The usage load hints are planned from: the store as serve found it (live learning does not move them). */
  private readonly hintUsage: UsageStats;

  constructor(readonly opts: RuntimeOptions) {
    this.hintUsage = cloneUsage(opts.usage);
    this.config = opts.setup.config;
    this.rules = visibilityRules(opts.setup.definitions, this.config.serve, opts.setup.configFile);
    this.known = new Map(opts.setup.known);
    const secrets = opts.setup.definitions.flatMap((d) => secretValues(d));
    this.learner = new Learner({
      store: opts.learn ? (opts.store ?? new FileUsageStore(opts.setup.usageStore)) : undefined,
      record: opts.record,
      user: opts.user,
      secrets,
      now: opts.now,
      log: opts.log,
      usage: opts.usage,
    });
    const idle = (server: string): number => (this.config.serve?.servers?.[server]?.idleTimeout ?? 0) * 1000;
    this.pool = new ServerPool(opts.setup.definitions, {
      spawnTimeoutMs: opts.spawnTimeoutMs,
      callTimeoutMs: opts.callTimeoutMs,
      idleTimeoutMs: idle,
      capabilities: () => this.declaration.current(),
      // With no connected client that accepts it (an HTTP client that declared it has left), the request is still
      // answered: no roots, elicitation declined, sampling refused.
      onServerRequest: (server, method, params, signal) =>
        this.askerFor(server, method)?.ask(method, params, signal) ?? unattendedAnswer(method),
      onNotification: (server, method, params) => this.serverNotification(server, method, params),
      log: opts.log,
      now: opts.now,
      ...opts.pool,
    });
    this.view = this.buildView();
  }

  /**
   * Who answers a server's elicitation, sampling or roots request. MCP sends such a request inside the server's
   * handling of a call, but the wire does not say which call: the client whose call to that server is in flight (the
   * latest when several are) is asked in that call's context. When calls are in flight and none of their clients
   * accepts it, nobody is asked (another client's user must not answer for this one): mcp-smart answers itself.
   * With no call in flight (a server asking on its own), any connected client that accepts it.
   */
  private askerFor(server: string, method: string): Asker | undefined {
    const want = method === 'elicitation/create' ? 'elicitation' : method === 'roots/list' ? 'roots' : 'sampling';
    const accepts = (a: Asker | undefined): a is Asker => a?.capabilities[want] !== undefined;
    const calls = this.calls.get(server) ?? [];
    if (calls.length > 0) return [...calls].reverse().find((c) => accepts(c.asker))?.asker;
    return [...this.askers.values()].find(accepts);
  }

  /**
   * A client initialized with these capabilities. When the declaration changes, every server's list is taken again
   * with it (from the tool-list cache, keyed by capabilities, else live: the server restarts to declare it), and
   * clients hear tools/list_changed when that changes what is served. Lists from --snapshot files stay as saved.
   */
  clientInitialized(capabilities: Record<string, unknown> | undefined): void {
    if (!this.declaration.add(capabilities) || this.opts.setup.fromSnapshot) return;
    this.redeclaring = (this.redeclaring ?? Promise.resolve())
      .then(() => this.relistDeclared())
      .catch((e: unknown) => this.opts.log(`warning: could not take the lists again: ${errorText(e)}`));
  }

  /** Resolves once the lists match the current declaration. */
  async settled(): Promise<void> {
    await this.redeclaring;
  }

  private async relistDeclared(): Promise<void> {
    const caps = this.declaration.current();
    const key = this.declaration.key();
    if (key === this.listedWith) return;
    this.listedWith = key;
    await relistWith(caps, {
      definitions: this.opts.setup.definitions,
      cache: this.opts.setup.cache,
      known: this.known,
      list: (server) => this.pool.list(server),
      declaredWith: (server) => this.pool.declaredWith(server),
      now: this.opts.now,
      log: this.opts.log,
    });
    await this.refresh(true);
  }

  /** Builds the view until every count is known (a warm count cache never loads the tokenizer). */
  private async countedView(): Promise<ServedView> {
    let view = this.buildView();
    for (let i = 0; i < 4; i++) {
      const misses = this.opts.counting.takeMisses();
      if (misses.length === 0) break;
      await this.opts.counting.prepare(misses);
      view = this.buildView();
    }
    this.opts.counting.takeMisses();
    return view;
  }

  /** The first view, with exact counts; new counts are written to the count cache in the background. */
  async init(): Promise<void> {
    this.view = await this.countedView();
    void this.opts.counting.flush().catch(() => undefined);
  }

  /** Lists, live, the servers whose tool list is not known yet (no snapshot, no cache entry). */
  async listUnknown(onListed: (def: string, snap: ServerSnapshot) => Promise<void>): Promise<void> {
    const missing = this.opts.setup.definitions.filter((d) => !this.known.has(d.name));
    await mapLimited(missing, SERVER_START_CONCURRENCY, async (def) => {
      try {
        const snap = await this.pool.list(def.name);
        this.known.set(def.name, snap);
        await onListed(def.name, snap);
      } catch (e) {
        this.opts.log(`warning: ${errorText(e)}; its tools are not served until it starts`);
      }
    });
    if (missing.length > 0) await this.refresh(false);
  }

  private buildView(): ServedView {
    const serve = this.config.serve ?? {};
    return buildServedView({
      servers: [...this.known.values()],
      mode: this.opts.mode,
      level: this.opts.level,
      config: serve,
      rules: this.rules,
      limit: this.opts.limit,
      usage: this.opts.usage,
      activated: this.activated,
      key: this.opts.key,
      deps: this.opts.counting.deps,
      ...(this.opts.loadHints ? { hints: this.opts.loadHints, hintUsage: this.hintUsage } : {}),
    });
  }

  /** Rebuilds the view; tells clients when the served names changed. */
  async refresh(notify = true): Promise<void> {
    const before = this.view.tools.map((t) => `${t.name}\u0000${JSON.stringify(t.definition)}`).join('\n');
    this.view = await this.countedView();
    // New counts (a re-list for a client's declaration brings tools the start did not have) go to the count cache,
    // as at init: otherwise every serve start loads the tokenizer again to count them.
    void this.opts.counting.flush().catch(() => undefined);
    this.index = undefined;
    this.indexing = undefined;
    const after = this.view.tools.map((t) => `${t.name}\u0000${JSON.stringify(t.definition)}`).join('\n');
    if (notify && before !== after) for (const f of this.toolsChanged) f();
  }

  /** Server instructions for initialize: what is served, how to reach the rest, and each server's own text. */
  instructions(): string {
    const names = [...this.known.keys()].sort();
    const parts = [
      `mcp-smart serves the tools of ${names.length} server${names.length === 1 ? '' : 's'}: ${names.join(', ')}.`,
    ];
    const find = this.view.tools.find((t) => t.meta === 'find')?.name;
    const call = this.view.tools.find((t) => t.meta === 'call')?.name;
    const read = this.view.tools.find((t) => t.meta === 'callRead')?.name;
    if (find && call)
      parts.push(
        `More tools are reachable through ${find} (search by intent) then ${call}${read ? ` (or ${read} for read-only tools)` : ''}.`,
      );
    for (const name of names) {
      const text = this.known.get(name)?.instructions;
      if (text) parts.push(`\n## ${name}\n${boundedInstructions(text)}`);
    }
    return parts.join(' ').replace(/ \n/g, '\n');
  }

  private async discoverIndex(): Promise<DiscoverIndex> {
    if (this.index) return this.index;
    this.indexing ??= (async () => {
      const servers = [...this.known.values()].map((s) => ({
        ...s,
        tools: s.tools.filter((t) => this.view.entries.has(`${s.name}.${t.name}`)),
      }));
      const index = await hybridIndex(servers, this.config);
      this.index = index;
      return index;
    })();
    return this.indexing;
  }

  /** logging/setLevel from a client: passed to every running server that logs (a failure is not the client's). */
  async setLogLevel(level: string): Promise<void> {
    await Promise.all(
      this.pool
        .running()
        .filter((s) => s.capabilities.logging !== undefined)
        .map((s) =>
          s.request('logging/setLevel', { level }, { timeoutMs: this.opts.callTimeoutMs }).catch(() => undefined),
        ),
    );
  }

  /** A client's roots changed: the running servers that were told about roots hear it too. */
  async rootsChanged(): Promise<void> {
    await Promise.all(
      this.pool.running().map((s) => s.notify('notifications/roots/list_changed').catch(() => undefined)),
    );
  }

  /** Builds the ranking index now (otherwise the first find_tool does). */
  async warm(): Promise<void> {
    await this.discoverIndex();
  }

  private unavailable(server: string): string | undefined {
    if (!this.pool.has(server)) return `server "${server}" has no definition here (it came from a snapshot)`;
    const h = this.pool.health(server);
    if (h.state === 'unhealthy') return `server "${server}" is unhealthy (${h.lastError ?? 'repeated failures'})`;
    if (h.state === 'backoff') return `server "${server}" is restarting after a failure`;
    return undefined;
  }

  async findTool(args: Record<string, unknown>): Promise<ToolResult> {
    const intent = typeof args.intent === 'string' ? args.intent.trim() : '';
    if (!intent) return textResult('find_tool needs "intent": the task in plain words.', true);
    const k = typeof args.k === 'number' && Number.isInteger(args.k) ? Math.min(20, Math.max(1, args.k)) : 5;
    const server = typeof args.server === 'string' && args.server !== '' ? args.server : undefined;
    const index = await this.discoverIndex();
    // Other phrasings of the same need (`queries`), each ranked, fused by reciprocal rank with the intent's ranking.
    const phrasings = [
      ...new Set([
        intent,
        ...(Array.isArray(args.queries) ? args.queries : [])
          .filter((q): q is string => typeof q === 'string' && q.trim() !== '')
          .map((q) => q.trim()),
      ]),
    ].slice(0, MAX_PHRASINGS);
    const rankOne = (text: string): string[] =>
      rankTools(index, text, {
        engine: 'hybrid',
        k: server ? index.tools.length : phrasings.length > 1 ? Math.max(20, k) : k,
        usage: this.opts.usage,
        // Recency is measured from the newest recording, as the store's memory is (usageForRanking): a store
        // learned from last month's sessions still ranks by what was used most recently then.
        now: newestRecording(this.opts.usage) ?? this.opts.now(),
        patterns: patternsFromConfig(this.config),
      }).results.map((r) => r.id);
    const ids = fuseRankings(phrasings.map(rankOne)).filter(
      (id) => !server || this.view.entries.get(id)?.server === server,
    );
    const top = ids.slice(0, k);
    this.learner.found(intent, top);
    const candidates = top.flatMap((id) => {
      const e = this.view.entries.get(id);
      return e ? [findCandidate(e, this.view, this.unavailable(e.server))] : [];
    });
    const answer = await this.withinBudget(
      candidates,
      findMaxTokens(args.maxTokens, this.config.serve?.findToolMaxTokens),
    );
    return textResult(answer.text);
  }

  /** The find_tool answer within `maxTokens`, counted exactly (the tokenizer loads on the first uncached line). */
  private async withinBudget(candidates: FindCandidate[], maxTokens: number): Promise<BudgetedAnswer> {
    const { counting } = this.opts;
    let answer = budgetFindAnswer(candidates, maxTokens, counting.countText);
    for (let i = 0; i < 4; i++) {
      const misses = counting.takeMisses();
      if (misses.length === 0) break;
      await counting.prepare(misses);
      answer = budgetFindAnswer(candidates, maxTokens, counting.countText);
    }
    return answer;
  }

  describeTool(args: Record<string, unknown>): ToolResult {
    return textResult(describeEntry(resolveTool(this.view, args.name), this.view));
  }

  listTools(args: Record<string, unknown>): ToolResult {
    return textResult(listEntries(this.view, typeof args.server === 'string' ? args.server : undefined));
  }

  /** call_tool / call_tool_read: resolve, check read-only, validate, forward. */
  async callThroughMeta(args: Record<string, unknown>, readOnly: boolean, ctx: CallContext): Promise<ToolResult> {
    const entry = resolveTool(this.view, args.name);
    if (readOnly && !isReadOnly(entry.tool)) {
      const call = this.view.tools.find((t) => t.meta === 'call')?.name ?? 'call_tool';
      throw new SmartError('SERVE_NOT_READ_ONLY', { name: entry.id, call });
    }
    const toolArgs = argumentsObject(entry.id, args.arguments);
    await this.validator.check(entry, toolArgs);
    const result = await this.forward(entry, toolArgs, ctx);
    if (this.opts.activate) await this.activateTool(entry.id);
    return result;
  }

  /** Forwards a call to the server behind and returns its result unchanged. */
  async forward(entry: CatalogEntry, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<ToolResult> {
    const started = this.opts.clock();
    let ok = false;
    const inFlight = this.calls.get(entry.server) ?? [];
    this.calls.set(entry.server, inFlight);
    inFlight.push(ctx);
    try {
      const meta = ctx._meta
        ? Object.fromEntries(Object.entries(ctx._meta).filter(([k]) => !META_EXTRA_KEYS.has(k)))
        : {};
      const params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> } = {
        name: entry.tool.name,
      };
      if (args !== undefined) params.arguments = args;
      if (Object.keys(meta).length > 0) params._meta = meta;
      const result = await this.pool.run(entry.server, (s) =>
        s.callTool(params, { timeoutMs: this.opts.callTimeoutMs, signal: ctx.signal, onprogress: ctx.onprogress }),
      );
      ok = result.isError !== true;
      return result;
    } finally {
      inFlight.splice(inFlight.indexOf(ctx), 1);
      if (inFlight.length === 0) this.calls.delete(entry.server);
      this.learner.called(entry.id, ok, Math.round(this.opts.clock() - started));
    }
  }

  /** --activate: the tool becomes first-class; least recently used ones leave when over the limit. */
  private async activateTool(id: string): Promise<void> {
    if (this.view.servedNameOf.has(id) && !this.activated.includes(id)) return;
    const at = this.activated.indexOf(id);
    if (at >= 0) this.activated.splice(at, 1);
    this.activated.push(id);
    let view = await this.countedView();
    while (view.tokens > this.opts.limit && this.activated.length > 0) {
      this.activated.shift();
      view = await this.countedView();
    }
    await this.refresh(true);
  }

  /** A proxy-level failure as a tool result the model can read; server-side JSON-RPC errors pass through. */
  static failureResult(e: unknown): ToolResult {
    if (isSmartError(e)) return textResult(`mcp-smart: ${e.message}`, true);
    throw e;
  }

  private serverNotification(server: string, method: string, params: Record<string, unknown> | undefined): void {
    if (method.endsWith('/list_changed')) {
      this.relist(server);
      return;
    }
    this.onServerNotification?.(server, method, params);
  }

  /** Servers being re-listed after a list_changed, and whether another came in meanwhile. */
  private readonly relisting = new Map<string, { again: boolean }>();

  /**
   * Re-lists a server after its list_changed. A storm of them costs one re-list in flight and at most one
   * more after it (which sees the latest list), so clients are told of a change a few times, not once each.
   */
  private relist(server: string): void {
    const running = this.relisting.get(server);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.relisting.set(server, state);
    void (async () => {
      try {
        do {
          state.again = false;
          const snap = await this.pool.list(server);
          this.known.set(server, snap);
          await this.refresh(true);
        } while (state.again);
      } catch (e) {
        this.opts.log(`warning: could not re-list ${server}: ${errorText(e)}`);
      } finally {
        this.relisting.delete(server);
      }
    })();
  }

  async close(): Promise<void> {
    await this.pool.closeAll();
    await this.learner.flush(true);
  }
}

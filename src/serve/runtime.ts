/**
 * The state `serve` shares across client sessions: the servers behind (lazy pool), their known lists,
 * the served view, find_tool (find.ts), and the learner. Client sessions (sdk-server.ts) call into it.
 */
import { secretValues } from '../core/connect/secrets.js';
import { capabilitiesKey } from '../core/declared-capabilities.js';
import { visibilityRules, type VisibilityRules } from '../core/config/tool-filter.js';
import { SmartError, errorText, isSmartError } from '../errors.js';
import type { ServerSnapshot, SmartConfig, UsageStats } from '../types.js';
import {
  buildServedView,
  idCollisions,
  type CatalogEntry,
  type ServeLevel,
  type ServeMode,
  type ServedView,
} from './catalog.js';
import type { Counting } from './deps.js';
import type { LoadHintRules } from '../core/hints/load-hints.js';
import { FileUsageStore } from '../core/store/file.js';
import { cloneUsage } from '../core/session/usage.js';
import type { UsageStore } from '../core/store/types.js';
import { Learner } from './learn.js';
import { unwrittenDir } from './unwritten.js';
import { dirname } from 'node:path';
import {
  ArgumentValidator,
  argumentsObject,
  describeEntry,
  isReadOnly,
  listEntries,
  resolveTool,
  textResult,
} from './meta.js';
import { unattendedAnswer } from '../core/connect/unattended.js';
import { Declaration, relistWith } from './declared.js';
import { ServerPool, type PoolOptions } from './pool.js';
import type { ServeSetup } from './setup.js';
import { boundedInstructions } from '../core/audit/findings.js';
import { Bridge, BRIDGE_DEFAULTS } from './bridge.js';
import { InFlight, type CallContext } from './in-flight.js';

export type { Asker, CallContext } from './in-flight.js';
import { resultProblem } from './result-check.js';
import { StartRetry, unstartedLine } from './start-retry.js';
import { ToolFinder } from './find.js';
import type { ServeScope } from './scope.js';
import { Relister } from './relist.js';
import { DEFAULT_FIRST_LIST_WAIT_MS, FirstAnswer } from './first-answer.js';
import { metaOnlyStart } from './setup.js';
import { IdentityViews } from './auth/identity-view.js';
import type { AuditLog } from './auth/audit.js';
import type { Telemetry } from './telemetry/hook.js';

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
  /** The scope derived from use (scope.ts): this project's and user's tools; undefined: none. */
  scope?: ServeScope;
  /** Load hints on pass-through tools (undefined: off). */
  loadHints?: LoadHintRules;
  /** The usage store learning writes to (the command opens and closes it); default: the file setup names. */
  store?: UsageStore;
  record?: string;
  spawnTimeoutMs: number;
  callTimeoutMs: number;
  log: (text: string) => void;
  /** --debug lines (undefined: none). */
  debug?: (text: string) => void;
  /** The cache folder find_tool's index is read from and written to (undefined: --no-cache). */
  indexCacheDir?: string;
  now: () => number;
  /** Monotonic ms for latency. */
  clock: () => number;
  pool?: Partial<PoolOptions>;
  /** How long a tools/list waits for servers still starting (first-answer.ts; default 10 s). */
  firstListWaitMs?: number;
  /** --audit-log: who called which tool, with which outcome (auth/audit.ts). */
  audit?: AuditLog;
  /** The label a token subject's learned calls are stored under (hashed unless the config says plain). */
  subjectLabel?: (subject: string) => string;
  /** Spans and metrics per call (telemetry/otel.ts); undefined when off: a call then does no telemetry work. */
  telemetry?: Telemetry;
}

export type ToolResult = Record<string, unknown>;

const META_EXTRA_KEYS = new Set(['progressToken']);
/** What settled() and loaded() return when nothing is pending: one promise, not one per call. */
const DONE: Promise<void> = Promise.resolve();

/** The client's `_meta` for the server behind, without serve's own keys; undefined when nothing is left. */
function forwardedMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (meta === undefined) return undefined;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !META_EXTRA_KEYS.has(k)));
  return Object.keys(kept).length > 0 ? kept : undefined;
}

export class ServeRuntime {
  readonly pool: ServerPool;
  readonly known: Map<string, ServerSnapshot>;
  view: ServedView;
  readonly learner: Learner;
  private readonly finder: ToolFinder;
  /** Re-lists a server after its list_changed (a storm costs one re-list in flight and one after it). */
  private readonly relister = new Relister({
    list: async (server) => {
      this.known.set(server, await this.pool.list(server));
      await this.refresh(true);
    },
    log: (text) => this.opts.log(text),
  });
  private readonly validator = new ArgumentValidator();
  private readonly activated: string[] = [];
  private readonly config: SmartConfig;
  /** The one visibility rule's inputs: what audit and budget leave out, serve never lists, finds or calls. */
  private readonly rules: VisibilityRules;
  /** Each connected client's callback for a changed tool list (notifications/tools/list_changed). */
  readonly toolsChanged = new Set<() => void>();
  /** Called for notifications a server behind sends that clients should see (resources/updated). */
  onServerNotification?: (server: string, method: string, params: Record<string, unknown> | undefined) => void;
  /** The calls in flight to each server, and the connected clients that can answer a server's request. */
  readonly inFlight = new InFlight();
  /** What the clients declared (roots, elicitation, sampling), declared in turn to the servers behind. */
  readonly declaration = new Declaration();
  /** The declaration the known lists were taken with. */
  private listedWith = '{}';
  /** Re-listing for a new declaration; tools/list and find_tool wait for it. */
  private redeclaring?: Promise<void>;

  /** Each caller's view: the shared one without what their serve.auth user or group filters refuse. */
  readonly identities: IdentityViews;

  /** 2026-07-28 clients' calls held open while a server behind waits for their input (bridge.ts). */
  readonly bridge: Bridge;

  /** The usage load hints are planned from: the store as serve found it (live learning does not move them). */
  private readonly hintUsage: UsageStats;
  /** The servers' first listing, and how long a tools/list waits for it (first-answer.ts). */
  readonly first: FirstAnswer;
  /** A tools/list was answered: each server listed from now on is served as it arrives (tools/list_changed). */
  private answered = false;
  /** The first answers need no server: meta mode's own tools (setup.ts metaOnlyStart). */
  readonly metaOnly: boolean;

  constructor(readonly opts: RuntimeOptions) {
    this.hintUsage = opts.scope ? opts.scope.hintUsage(cloneUsage(opts.usage)) : cloneUsage(opts.usage);
    this.first = new FirstAnswer(opts.firstListWaitMs ?? DEFAULT_FIRST_LIST_WAIT_MS);
    this.metaOnly = metaOnlyStart(opts.mode, opts.setup.config);
    this.config = opts.setup.config;
    this.rules = visibilityRules(opts.setup.definitions, this.config.serve, opts.setup.configFile);
    this.known = new Map(opts.setup.known);
    this.identities = new IdentityViews(this.config.serve?.auth, opts.setup.configFile);
    const secrets = opts.setup.definitions.flatMap((d) => secretValues(d));
    const store = opts.learn ? (opts.store ?? new FileUsageStore(opts.setup.usageStore)) : undefined;
    this.learner = new Learner({
      store,
      // A database's calls a shutdown could not write are kept beside the user's own store, for the next serve.
      // Its answers wait until their learned call is committed (learn-commit.ts): a SIGKILL loses none of them.
      ...(store?.kind === 'postgres'
        ? { keepDir: unwrittenDir(dirname(opts.setup.usageStore), store.label), commit: {} }
        : {}),
      record: opts.record,
      user: opts.user,
      ...(opts.scope ? { scope: opts.scope } : {}),
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
        this.inFlight.askerFor(server, method)?.ask(method, params, signal) ?? unattendedAnswer(method),
      // A server asking for what serve did not declare to it (its session predates the declaration, held by a call):
      // the calling client is asked when its request declared it; else -32601, and a 2026-07-28 call fails -32021.
      onUndeclaredRequest: (server, method, params, signal) =>
        this.inFlight.askerFor(server, method, true)?.ask(method, params, signal),
      onNotification: (server, method, params) => this.serverNotification(server, method, params),
      log: opts.log,
      now: opts.now,
      ...opts.pool,
    });
    this.view = this.buildView();
    const inputTimeout = this.config.serve?.inputTimeout;
    this.bridge = new Bridge({ ...BRIDGE_DEFAULTS, ...(inputTimeout && { timeoutMs: inputTimeout }) }, opts.log);
    this.finder = new ToolFinder({
      view: () => this.view,
      known: () => this.known.values(),
      config: this.config,
      usage: opts.usage,
      ...(opts.scope ? { scope: (subject?: string) => opts.scope!.weights(subject) } : {}),
      now: opts.now,
      counting: opts.counting,
      found: (intent, ids) => this.learner.found(intent, ids),
      unavailable: (server) => this.unavailable(server),
      unstarted: () => this.unstarted?.pending() ?? [],
      indexCacheDir: opts.indexCacheDir,
      ...(opts.debug ? { debug: opts.debug } : {}),
    });
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

  /** Resolves once the lists match the current declaration (no promise of its own per call: every call asks). */
  settled(): Promise<void> {
    return this.redeclaring ?? DONE;
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
      listed: () => (this.answered ? this.refresh(true) : Promise.resolve()),
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

  private warned = new Set<string>();

  /** Tools whose ids collided are served under a suffixed id; each is warned about once. */
  private warnCollisions(): void {
    for (const line of idCollisions(this.view.entries.values()))
      if (!this.warned.has(line)) {
        this.warned.add(line);
        this.opts.log(`warning: ${line}`);
      }
  }

  /** The first view, with exact counts; new counts are written to the count cache in the background. */
  async init(): Promise<void> {
    // Meta mode's first answers need no count: the tokenizer (0.3 s and more to load) is not waited for on a cold
    // start; the counts follow once the first tools/list is out (listReady).
    if (this.metaOnly) return void (this.view = this.buildView());
    this.view = await this.countedView();
    this.warnCollisions();
    void this.opts.counting.flush().catch(() => undefined);
  }

  /**
   * Lists, live, the servers whose tool list is not known yet (no snapshot, no cache entry). One that fails is tried
   * again in the background (start-retry.ts) and served once it lists.
   */
  async listUnknown(onListed: (def: string, snap: ServerSnapshot) => Promise<void>): Promise<void> {
    const missing = this.opts.setup.definitions.filter((d) => !this.known.has(d.name)).map((d) => d.name);
    this.unstarted = new StartRetry({
      list: async (server, later) => {
        let snap = await this.pool.list(server);
        // A client declared more while this server was listing: list it again (the pool restarts it declaring that).
        if (capabilitiesKey(this.pool.declaredWith(server)) !== this.declaration.key())
          snap = await this.pool.list(server);
        this.known.set(server, snap);
        await onListed(server, snap);
        if (later || this.answered) await this.refresh(true);
      },
      reasonOf: (server, e) => this.pool.health(server).lastError ?? errorText(e),
      log: this.opts.log,
      now: this.opts.now,
    });
    await this.unstarted.startAll(missing);
    if (missing.length > 0) await this.refresh(true);
  }

  /**
   * What a tools/list waits for: nothing when the served list is serve's own (meta mode), else the servers' first
   * lists and those for the client's declaration, at most the first-list wait (then what is ready is served).
   */
  async listReady(): Promise<void> {
    if (!this.metaOnly && !this.first.settled) {
      await this.first.within(Promise.all([this.first.listed(), this.settled()]));
      // Out of time: what has been listed so far is served (each server still starting follows as it arrives; a
      // client answered before heard of each arrival already).
      if (!this.first.settled) await this.refresh(false);
    }
    // Meta mode: the servers start once this answer is out, so that starting them does not delay it.
    if (!this.answered && this.metaOnly) setImmediate(() => void this.first.start().then(() => this.refresh(true)));
    this.answered = true;
  }

  /**
   * What a prompts or resources list waits for: the servers' first lists, as a tools/list outside meta mode (the
   * servers behind own every prompt and resource, in meta mode too), at most the first-list wait.
   */
  async otherListReady(): Promise<void> {
    if (this.first.settled) return;
    if (this.metaOnly) void this.first.start().then(() => this.refresh(true));
    await this.first.within(Promise.all([this.first.listed(), this.settled()]));
    if (!this.first.settled) await this.refresh(false);
  }

  /** Servers that failed to start at serve start and are being tried again. */
  unstarted?: StartRetry;

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
    this.warnCollisions();
    this.finder.invalidate();
    // New counts (a re-list for a client's declaration brings tools the start did not have) go to the count cache,
    // as at init: otherwise every serve start loads the tokenizer again to count them.
    void this.opts.counting.flush().catch(() => undefined);
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

  private fullLoad?: Promise<void>;

  /**
   * Resolves once every list has its schemas. Serve may start from the catalogue start cache (ServeSetup.full: meta
   * mode, whose first answers need none); the snapshot is then read in full here, once, before the first tool call
   * (a failed read is tried again on the next one). Lists taken live meanwhile are kept.
   */
  loaded(): Promise<void> {
    const { setup } = this.opts;
    const full = setup.full;
    if (!full) return DONE;
    this.fullLoad ??= (async () => {
      const lists = await full();
      const lean = (name: string): boolean => this.known.get(name) === setup.known.get(name);
      // A file edited since the start: its servers as they are now (one gone from it is gone from serve too).
      for (const name of setup.known.keys()) if (!lists.has(name) && lean(name)) this.known.delete(name);
      for (const [name, snap] of lists) if (lean(name)) this.known.set(name, snap);
      delete setup.full;
      await this.refresh(true);
    })().catch((e: unknown) => {
      this.fullLoad = undefined;
      throw e;
    });
    return this.fullLoad;
  }

  /** Starts loaded() after the current answer went out (the first tools/list), so that the first call finds it done. */
  loadSoon(): void {
    if (this.opts.setup.full)
      setImmediate(() => void this.loaded().catch((e: unknown) => this.opts.log(`warning: ${errorText(e)}`)));
  }

  /** Builds the ranking index now (otherwise the first find_tool does). */
  async warm(): Promise<void> {
    await this.loaded();
    await this.finder.warm();
  }

  private unavailable(server: string): string | undefined {
    if (!this.pool.has(server)) return `server "${server}" has no definition here (it came from a snapshot)`;
    const h = this.pool.health(server);
    if (h.state === 'unhealthy') return `server "${server}" is unhealthy (${h.lastError ?? 'repeated failures'})`;
    if (h.state === 'backoff') return `server "${server}" is restarting after a failure`;
    return undefined;
  }

  /** The user label a caller's token subject is learned and scoped under (none without a token). */
  private userOf(caller: CallContext['caller']): string | undefined {
    return caller?.subject !== undefined ? this.opts.subjectLabel?.(caller.subject) : undefined;
  }

  /**
   * find_tool. `caller`: whose view it searches (identities) and whose scope ranks first; `meta`: the request's
   * `_meta` (its trace context, when telemetry is on).
   */
  async findTool(
    args: Record<string, unknown>,
    caller?: CallContext['caller'],
    meta?: Record<string, unknown>,
  ): Promise<ToolResult> {
    const user = this.userOf(caller);
    const viewOf = (shared: ServedView): ServedView => this.identities.viewFor(shared, caller);
    const trace = this.opts.telemetry?.findTool(meta);
    if (!trace) return this.finder.find(args, viewOf, user);
    try {
      let found: number | undefined;
      const result = await this.finder.find(args, viewOf, user, (n) => (found = n));
      trace.answered(found);
      return result;
    } catch (e) {
      trace.failed(e);
      throw e;
    }
  }

  describeTool(args: Record<string, unknown>, view = this.view): ToolResult {
    return textResult(describeEntry(resolveTool(view, args.name), view));
  }

  listTools(args: Record<string, unknown>, view = this.view): ToolResult {
    const server = typeof args.server === 'string' ? args.server : undefined;
    const unstarted = (this.unstarted?.pending() ?? []).filter((u) => server === undefined || u.server === server);
    const notes = unstarted.map((u) => unstartedLine(u));
    if (server !== undefined && notes.length > 0) return textResult(notes.join('\n'));
    return textResult([listEntries(view, server), ...notes].filter((t) => t !== '').join('\n'));
  }

  /** call_tool / call_tool_read: resolve, check read-only, validate, forward. */
  async callThroughMeta(
    args: Record<string, unknown>,
    readOnly: boolean,
    ctx: CallContext,
    view = this.view,
  ): Promise<ToolResult> {
    const entry = resolveTool(view, args.name);
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
    const trace = this.opts.telemetry?.toolCall(entry.server, entry.tool.name, ctx._meta);
    try {
      const params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> } = {
        name: entry.tool.name,
      };
      if (args !== undefined) params.arguments = args;
      const meta = trace ? trace.meta(forwardedMeta(ctx._meta)) : forwardedMeta(ctx._meta);
      if (meta) params._meta = meta;
      const result = await this.inCall(entry.server, ctx, 'tools/call', params);
      const problem = resultProblem(result);
      if (problem) throw new SmartError('SERVE_BAD_RESULT', { server: entry.server, tool: entry.tool.name, problem });
      ok = result.isError !== true;
      trace?.answered(result);
      return result;
    } catch (e) {
      trace?.failed(e);
      throw e;
    } finally {
      await this.learner.called(entry.id, ok, Math.round(this.opts.clock() - started), this.userOf(ctx.caller));
    }
  }

  /** A request to a server behind, in flight as `ctx`'s call: the server's requests meanwhile go to its client. */
  inCall(server: string, ctx: CallContext, method: string, params: Record<string, unknown>): Promise<ToolResult> {
    const opts = { timeoutMs: this.opts.callTimeoutMs, signal: ctx.signal, onprogress: ctx.onprogress };
    return this.inFlight.track(server, ctx, () =>
      this.pool.run(server, (s) => s.request(method, params, opts), ctx.signal),
    );
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
      this.relister.changed(server);
      return;
    }
    // A log message during a 2026-07-28 call goes on that call's stream, as its request asked (call-log.ts).
    const toCall = method === 'notifications/message' && params ? this.inFlight.logTo(server) : undefined;
    if (toCall) return toCall(params!);
    this.onServerNotification?.(server, method, params);
  }

  /**
   * Ends the servers and writes what was learned, side by side: both are bounded, so exit is prompt. `flushWithinMs`
   * bounds the last write (learn.ts: shorter on a signal than when the client went away).
   */
  async close(flushWithinMs?: number): Promise<void> {
    this.bridge.close();
    this.unstarted?.stop();
    // Counts taken since the last flush (a find_tool's lines) are kept for the next start.
    const counts = this.opts.counting.flush().catch(() => undefined);
    await Promise.all([this.pool.closeAll(), this.learner.finalFlush(flushWithinMs), counts]);
  }
}

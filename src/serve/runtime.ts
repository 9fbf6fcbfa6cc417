/**
 * The state `serve` shares across client sessions: the servers behind (lazy pool), what is listed and served
 * (served-list.ts) and when lists are taken (list-lifecycle.ts), find_tool (find.ts), forwarded calls
 * (tool-calls.ts) and the learner. Client sessions (sdk-server.ts) call into it.
 */
import type { ServerSnapshot } from '../core/types.js';
import type { CatalogEntry, ServedView } from './served-view.js';
import type { Learner } from './learn.js';
import { describeEntry, listEntries, resolveTool, textResult } from './meta.js';
import { Declaration } from './declared.js';
import type { ServerPool } from './pool.js';
import { Bridge, BRIDGE_DEFAULTS } from './bridge.js';
import { InFlight, type CallContext } from './in-flight.js';
import { unstartedLine, type StartRetry } from './start-retry.js';
import type { ToolFinder } from './find.js';
import { RELIST_HOLD_MS, Relister } from './relist.js';
import type { FirstAnswer } from './first-answer.js';
import { IdentityViews } from './auth/identity-view.js';
import type { RuntimeOptions, ToolResult } from './runtime-options.js';
import { ServedList, type OtherLists } from './served-list.js';
import { ListLifecycle } from './list-lifecycle.js';
import { ToolCalls, failureResult } from './tool-calls.js';
import { finderFor, learnerFor, poolFor } from './runtime-wiring.js';
import { readServerArg } from './find-args.js';
import { notRunningError } from './not-running.js';
import type { SmartError } from '../process/errors.js';

export type { Asker, CallContext } from './in-flight.js';
export type { RuntimeOptions, ToolResult } from './runtime-options.js';

export class ServeRuntime {
  readonly pool: ServerPool;
  readonly learner: Learner;
  private readonly finder: ToolFinder;
  /** The known lists and the view served from them (served-list.ts). */
  private readonly served: ServedList;
  /** When the lists are taken, and what a list request waits for (list-lifecycle.ts). */
  private readonly lists: ListLifecycle;
  private readonly calls: ToolCalls;
  /** Re-lists a server after its list_changed (a storm costs one re-list in flight and one after it). */
  private readonly relister = new Relister({
    list: async (server) => {
      this.known.set(server, await this.pool.list(server));
      await this.refresh(true);
    },
    log: (text) => this.opts.log(text),
  });
  /** Called for notifications a server behind sends that clients should see (resources/updated). */
  onServerNotification?: (server: string, method: string, params: Record<string, unknown> | undefined) => void;
  /** The calls in flight to each server, and the connected clients that can answer a server's request. */
  readonly inFlight = new InFlight();
  /** What the clients declared (roots, elicitation, sampling), declared in turn to the servers behind. */
  readonly declaration = new Declaration();

  /** Each caller's view: the shared one without what their serve.auth user or group filters refuse. */
  readonly identities: IdentityViews;

  /** 2026-07-28 clients' calls held open while a server behind waits for their input (bridge.ts). */
  readonly bridge: Bridge;

  constructor(readonly opts: RuntimeOptions) {
    this.served = new ServedList(opts, () => this.finder.invalidate());
    const config = opts.setup.config;
    this.identities = new IdentityViews(config.serve?.auth, opts.setup.configFile);
    this.learner = learnerFor(opts);
    this.pool = poolFor(opts, {
      declaration: this.declaration,
      inFlight: this.inFlight,
      notification: (server, method, params) => this.serverNotification(server, method, params),
    });
    this.lists = new ListLifecycle({ opts, served: this.served, pool: this.pool, declaration: this.declaration });
    const inputTimeout = config.serve?.inputTimeout;
    this.bridge = new Bridge({ ...BRIDGE_DEFAULTS, ...(inputTimeout && { timeoutMs: inputTimeout }) }, opts.log);
    this.finder = finderFor(opts, {
      view: () => this.view,
      known: () => this.known.values(),
      found: (intent, ids) => this.learner.found(intent, ids),
      unavailable: (server) => this.unavailable(server),
      unstarted: () => this.unstarted?.pending() ?? [],
    });
    this.calls = new ToolCalls({
      opts,
      pool: this.pool,
      inFlight: this.inFlight,
      learner: this.learner,
      served: this.served,
      userOf: (caller) => this.userOf(caller),
      notRunning: (name) => this.notRunning(name),
      relisted: (server) => this.relister.settled(server, RELIST_HOLD_MS),
    });
  }

  /** Each server's tool list as last taken. */
  get known(): Map<string, ServerSnapshot> {
    return this.served.known;
  }

  /** The view served to every client (each caller's own: identities.viewFor). */
  get view(): ServedView {
    return this.served.view;
  }

  /** Each connected client's callback for a changed tool list (notifications/tools/list_changed). */
  get toolsChanged(): Set<() => void> {
    return this.served.toolsChanged;
  }

  /** Each connected client's callback for changed prompt or resource lists (their list_changed). */
  get othersChanged(): Set<(changed: OtherLists) => void> {
    return this.served.othersChanged;
  }

  /** The servers' first listing, and how long a tools/list waits for it (first-answer.ts). */
  get first(): FirstAnswer {
    return this.lists.first;
  }

  /** The first answers need no server: meta mode's own tools (setup.ts metaOnlyStart). */
  get metaOnly(): boolean {
    return this.lists.metaOnly;
  }

  /** Servers that failed to start at serve start and are being tried again. */
  get unstarted(): StartRetry | undefined {
    return this.lists.unstarted;
  }

  /** A client initialized with these capabilities: the lists are taken again for a changed declaration. */
  clientInitialized(capabilities: Record<string, unknown> | undefined): void {
    this.lists.clientInitialized(capabilities);
  }

  /** Resolves once the lists match the current declaration. */
  settled(): Promise<void> {
    return this.lists.settled();
  }

  /** The first view, with exact counts (meta mode: none waited for). */
  init(): Promise<void> {
    return this.served.init(this.metaOnly);
  }

  /** Lists, live, the servers whose tool list is not known yet; one that fails is tried again in the background. */
  listUnknown(onListed: (def: string, snap: ServerSnapshot) => Promise<void>): Promise<void> {
    return this.lists.listUnknown(onListed);
  }

  /** What a tools/list waits for (list-lifecycle.ts). */
  listReady(): Promise<void> {
    return this.lists.listReady();
  }

  /** What a prompts or resources list waits for (list-lifecycle.ts). */
  otherListReady(): Promise<void> {
    return this.lists.otherListReady();
  }

  /** Rebuilds the view; tells clients when the served names changed. */
  refresh(notify = true): Promise<void> {
    return this.served.refresh(notify);
  }

  /** Resolves once the view served has exact token counts (a first one may be served with bounds: served-list.ts). */
  counts(): Promise<void> {
    return this.served.counts();
  }

  /** Server instructions for initialize: what is served, how to reach the rest, and each server's own text. */
  instructions(): string {
    return this.served.instructions();
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

  /** Resolves once every list has its schemas (a lean start reads the full snapshot here, once). */
  loaded(): Promise<void> {
    return this.lists.loaded();
  }

  /** Starts loaded() after the current answer went out (the first tools/list), so that the first call finds it done. */
  loadSoon(): void {
    this.lists.loadSoon();
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

  /** The refusal for a tool id whose server is not running, saying why (not-running.ts); else undefined. */
  private notRunning(name: string): SmartError | undefined {
    return notRunningError(name, {
      definitions: this.opts.setup.definitions,
      held: this.opts.setup.held,
      unstarted: () => this.unstarted?.pending() ?? [],
      starting: (server) => this.pool.health(server).state === 'starting',
      listed: (server) => this.known.has(server),
    });
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
    return textResult(
      describeEntry(
        resolveTool(view, args.name, (n) => this.notRunning(n)),
        view,
      ),
    );
  }

  listTools(args: Record<string, unknown>, view = this.view): ToolResult {
    const named = readServerArg('list_tools', args.server);
    if ('error' in named) return textResult(named.error, true);
    const { server } = named;
    const pending = this.unstarted?.pending() ?? [];
    const notes = pending.filter((u) => server === undefined || u.server === server).map((u) => unstartedLine(u));
    if (server !== undefined && notes.length > 0) return textResult(notes.join('\n'));
    return textResult(
      [listEntries(view, server, pending, this.opts.setup.held), ...notes].filter((t) => t !== '').join('\n'),
    );
  }

  /** call_tool / call_tool_read: resolve, check read-only, validate, forward (tool-calls.ts). */
  callThroughMeta(
    args: Record<string, unknown>,
    readOnly: boolean,
    ctx: CallContext,
    view = this.view,
  ): Promise<ToolResult> {
    return this.calls.callThroughMeta(args, readOnly, ctx, view);
  }

  /** Forwards a call to the server behind and returns its result unchanged. */
  forward(entry: CatalogEntry, args: Record<string, unknown> | undefined, ctx: CallContext): Promise<ToolResult> {
    return this.calls.forward(entry, args, ctx);
  }

  /** A request to a server behind, in flight as `ctx`'s call: the server's requests meanwhile go to its client. */
  inCall(server: string, ctx: CallContext, method: string, params: Record<string, unknown>): Promise<ToolResult> {
    return this.calls.inCall(server, ctx, method, params);
  }

  /** A proxy-level failure as a tool result the model can read; server-side JSON-RPC errors pass through. */
  static failureResult(e: unknown): ToolResult {
    return failureResult(e);
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

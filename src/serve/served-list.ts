/**
 * What serve lists: the servers' known tool lists and the view served from them (catalog.ts), rebuilt until every
 * count is known, with --activate's first-class tools and the clients told when the served list changes.
 */
import { visibilityRules, type VisibilityRules } from '../core/config/tool-filter.js';
import { boundedInstructions } from '../core/audit/findings.js';
import { cloneUsage } from '../core/session/usage.js';
import type { ServerSnapshot, SmartConfig, UsageStats } from '../core/types.js';
import { buildServedView, idCollisions, type ServedView } from './served-view.js';
import type { RuntimeOptions } from './runtime-options.js';
import { errorText } from '../process/errors.js';

/** What a client's tools/list holds: a change tells clients tools/list_changed. */
const signature = (view: ServedView): string =>
  view.tools.map((t) => `${t.name}\u0000${JSON.stringify(t.definition)}`).join('\n');

/** Which of the prompt and resource lists changed (a server arriving late, or a server's own list_changed). */
export interface OtherLists {
  prompts: boolean;
  resources: boolean;
}

/** What the servers' prompts and resources lists hold: a change tells clients prompts or resources list_changed. */
const otherSignatures = (known: Map<string, ServerSnapshot>): { prompts: string; resources: string } => {
  const prompts: string[] = [];
  const resources: string[] = [];
  for (const [name, s] of known) {
    if (s.prompts?.length) prompts.push(name, JSON.stringify(s.prompts));
    if (s.resources?.length || s.resourceTemplates?.length)
      resources.push(name, JSON.stringify(s.resources ?? []), JSON.stringify(s.resourceTemplates ?? []));
  }
  return { prompts: prompts.join('\u0000'), resources: resources.join('\u0000') };
};

type ListOptions = Pick<
  RuntimeOptions,
  'setup' | 'mode' | 'level' | 'limit' | 'key' | 'counting' | 'usage' | 'scope' | 'loadHints' | 'log'
>;

export class ServedList {
  /** Each server's tool list as last taken (start cache, snapshot or live). */
  readonly known: Map<string, ServerSnapshot>;
  view: ServedView;
  /** Each connected client's callback for a changed tool list (notifications/tools/list_changed). */
  readonly toolsChanged = new Set<() => void>();
  /** Each connected client's callback for changed prompt or resource lists (their list_changed). */
  readonly othersChanged = new Set<(changed: OtherLists) => void>();
  /** The prompt and resource lists as the clients last heard of them. */
  private others: { prompts: string; resources: string };
  /** --activate: the tools made first-class by a call, least recently used first. */
  private readonly activated: string[] = [];
  private readonly config: SmartConfig;
  /** The one visibility rule's inputs: what audit and budget leave out, serve never lists, finds or calls. */
  private readonly rules: VisibilityRules;
  /** The usage load hints are planned from: the store as serve found it (live learning does not move them). */
  private readonly hintUsage: UsageStats;
  private readonly warned = new Set<string>();
  /** Whether the load hints served depend on token counts (served with bounds they could differ: current()). */
  private readonly hintsCount: boolean;
  /** The exact counts of a view served with bounds (current()), being taken; dropped when a later build replaced it. */
  private exact?: Promise<void>;
  private builds = 0;

  /** `rebuilt`: called on each refresh, before the clients hear of it (find_tool's index is then stale). */
  constructor(
    private readonly opts: ListOptions,
    private readonly rebuilt: () => void,
  ) {
    this.hintUsage = opts.scope ? opts.scope.hintUsage(cloneUsage(opts.usage)) : cloneUsage(opts.usage);
    // Load hints weigh tokens only for the tools the team has called (planLoadHints): none on a first start.
    this.hintsCount =
      opts.loadHints !== undefined && Object.values(this.hintUsage.tools).some((u) => u !== undefined && u.success > 0);
    this.config = opts.setup.config;
    this.rules = visibilityRules(opts.setup.definitions, this.config.serve, opts.setup.configFile);
    this.known = new Map(opts.setup.known);
    this.others = otherSignatures(this.known);
    this.view = this.build();
  }

  private build(deps = this.opts.counting.deps): ServedView {
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
      deps,
      ...(this.opts.loadHints ? { hints: this.opts.loadHints, hintUsage: this.hintUsage } : {}),
    });
  }

  /** Builds the view until every count is known (a warm count cache never loads the tokenizer). */
  private async counted(): Promise<ServedView> {
    let view = this.build();
    for (let i = 0; i < 4; i++) {
      const misses = this.opts.counting.takeMisses();
      if (misses.length === 0) break;
      await this.opts.counting.prepare(misses);
      view = this.build();
    }
    this.opts.counting.takeMisses();
    return view;
  }

  /**
   * The view to serve now (issue 40.1). A count not in the count cache needs the tokenizer (0.3 s and more to load on
   * a cold start). When what is served cannot depend on it, the view is built with each unknown count at its upper
   * bound (deps.ts bounds) and served at once, its exact counts following (exactSoon): when every server's place is
   * fixed (tools mode, `load`) or the budget plan fits with the bounds and so changes nothing (exact counts are
   * lower, so it fits with them too), and no load hint weighs a tool's tokens (no usage yet). Otherwise the exact view.
   */
  private async current(): Promise<ServedView> {
    const build = ++this.builds;
    if (!this.hintsCount) {
      const bounded = this.build(this.opts.counting.bounds.deps);
      if (!this.opts.counting.bounds.missed()) return bounded;
      if (bounded.plan === undefined || (bounded.plan.fits && bounded.plan.steps.length === 0)) {
        this.exactSoon(build);
        return bounded;
      }
    }
    return this.counted();
  }

  /** After a view served with bounds: the exact view, taken in the background (same tools, exact counts). */
  private exactSoon(build: number): void {
    this.exact = this.counted().then(
      (view) => {
        if (build !== this.builds) return;
        const changed = signature(view) !== signature(this.view);
        this.view = view;
        void this.opts.counting.flush().catch(() => undefined);
        if (!changed) return;
        // The same tools (the usual case) keep find_tool's index: it ranks the entries, not their counts.
        this.rebuilt();
        for (const f of this.toolsChanged) f();
      },
      (e: unknown) => this.opts.log(`warning: could not count the served tools: ${errorText(e)}`),
    );
  }

  /** Resolves once the view served has exact counts (a view served with bounds: once they are taken). */
  async counts(): Promise<void> {
    for (let at = this.exact; at !== undefined; at = this.exact) {
      await at;
      if (at === this.exact) this.exact = undefined;
    }
  }

  /** Tools whose ids collided are served under a suffixed id; each is warned about once. */
  private warnCollisions(): void {
    for (const line of idCollisions(this.view.entries.values()))
      if (!this.warned.has(line)) {
        this.warned.add(line);
        this.opts.log(`warning: ${line}`);
      }
  }

  /**
   * The first view, with exact counts; new counts are written to the count cache in the background. `metaOnly`: meta
   * mode's first answers need no count: the tokenizer (0.3 s and more to load) is not waited for on a cold start; the
   * counts follow once the first tools/list is out (listReady).
   */
  async init(metaOnly: boolean): Promise<void> {
    if (metaOnly) return void (this.view = this.build());
    this.view = await this.current();
    this.warnCollisions();
    void this.opts.counting.flush().catch(() => undefined);
  }

  /** Rebuilds the view; tells clients when the served names changed. */
  async refresh(notify = true): Promise<void> {
    const before = signature(this.view);
    this.view = await this.current();
    this.warnCollisions();
    this.rebuilt();
    // New counts (a re-list for a client's declaration brings tools the start did not have) go to the count cache,
    // as at init: otherwise every serve start loads the tokenizer again to count them.
    void this.opts.counting.flush().catch(() => undefined);
    if (notify && before !== signature(this.view)) for (const f of this.toolsChanged) f();
    const others = otherSignatures(this.known);
    const changed = {
      prompts: others.prompts !== this.others.prompts,
      resources: others.resources !== this.others.resources,
    };
    this.others = others;
    if (notify && (changed.prompts || changed.resources)) for (const f of this.othersChanged) f(changed);
  }

  /** --activate: the tool becomes first-class; least recently used ones leave when over the limit. */
  async activate(id: string): Promise<void> {
    if (this.view.servedNameOf.has(id) && !this.activated.includes(id)) return;
    const at = this.activated.indexOf(id);
    if (at >= 0) this.activated.splice(at, 1);
    this.activated.push(id);
    let view = await this.counted();
    while (view.tokens > this.opts.limit && this.activated.length > 0) {
      this.activated.shift();
      view = await this.counted();
    }
    await this.refresh(true);
  }

  /** Server instructions for initialize: what is served, how to reach the rest, and each server's own text. */
  instructions(): string {
    // Every server serve starts, listed yet or not (a first start answers initialize before any list is known).
    const names = [...new Set([...this.opts.setup.definitions.map((d) => d.name), ...this.known.keys()])].sort();
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
}

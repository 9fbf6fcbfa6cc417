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
  /** --activate: the tools made first-class by a call, least recently used first. */
  private readonly activated: string[] = [];
  private readonly config: SmartConfig;
  /** The one visibility rule's inputs: what audit and budget leave out, serve never lists, finds or calls. */
  private readonly rules: VisibilityRules;
  /** The usage load hints are planned from: the store as serve found it (live learning does not move them). */
  private readonly hintUsage: UsageStats;
  private readonly warned = new Set<string>();

  /** `rebuilt`: called on each refresh, before the clients hear of it (find_tool's index is then stale). */
  constructor(
    private readonly opts: ListOptions,
    private readonly rebuilt: () => void,
  ) {
    this.hintUsage = opts.scope ? opts.scope.hintUsage(cloneUsage(opts.usage)) : cloneUsage(opts.usage);
    this.config = opts.setup.config;
    this.rules = visibilityRules(opts.setup.definitions, this.config.serve, opts.setup.configFile);
    this.known = new Map(opts.setup.known);
    this.view = this.build();
  }

  private build(): ServedView {
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
    this.view = await this.counted();
    this.warnCollisions();
    void this.opts.counting.flush().catch(() => undefined);
  }

  /** Rebuilds the view; tells clients when the served names changed. */
  async refresh(notify = true): Promise<void> {
    const before = this.view.tools.map((t) => `${t.name}\u0000${JSON.stringify(t.definition)}`).join('\n');
    this.view = await this.counted();
    this.warnCollisions();
    this.rebuilt();
    // New counts (a re-list for a client's declaration brings tools the start did not have) go to the count cache,
    // as at init: otherwise every serve start loads the tokenizer again to count them.
    void this.opts.counting.flush().catch(() => undefined);
    const after = this.view.tools.map((t) => `${t.name}\u0000${JSON.stringify(t.definition)}`).join('\n');
    if (notify && before !== after) for (const f of this.toolsChanged) f();
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
}

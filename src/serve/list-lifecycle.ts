/**
 * When serve takes the servers' lists over its life — live at start for those not known yet (retried in the
 * background), again for each new client declaration, in full after a lean start — and what a list request waits for.
 */
import { capabilitiesKey } from '../core/declared-capabilities.js';
import { errorText } from '../process/errors.js';
import type { ServerSnapshot } from '../core/types.js';
import { relistWith, type Declaration } from './declared.js';
import { DEFAULT_FIRST_LIST_WAIT_MS, FirstAnswer } from './first-answer.js';
import type { ServerPool } from './pool.js';
import type { RuntimeOptions } from './runtime-options.js';
import type { ServedList } from './served-list.js';
import { metaOnlyStart } from './setup.js';
import { StartRetry } from './start-retry.js';

/** What settled() and loaded() return when nothing is pending: one promise, not one per call. */
const DONE: Promise<void> = Promise.resolve();

export interface ListLifecycleParts {
  opts: Pick<RuntimeOptions, 'setup' | 'mode' | 'firstListWaitMs' | 'log' | 'now'>;
  served: ServedList;
  pool: ServerPool;
  declaration: Declaration;
}

export class ListLifecycle {
  /** The servers' first listing, and how long a tools/list waits for it (first-answer.ts). */
  readonly first: FirstAnswer;
  /** The first answers need no server: meta mode's own tools (setup.ts metaOnlyStart). */
  readonly metaOnly: boolean;
  /** Servers that failed to start at serve start and are being tried again. */
  unstarted?: StartRetry;
  /** A tools/list was answered: each server listed from now on is served as it arrives (tools/list_changed). */
  private answered = false;
  /** The declaration the known lists were taken with. */
  private listedWith = '{}';
  /** Re-listing for a new declaration; tools/list and find_tool wait for it. */
  private redeclaring?: Promise<void>;
  private fullLoad?: Promise<void>;

  constructor(private readonly parts: ListLifecycleParts) {
    this.first = new FirstAnswer(parts.opts.firstListWaitMs ?? DEFAULT_FIRST_LIST_WAIT_MS);
    this.metaOnly = metaOnlyStart(parts.opts.mode, parts.opts.setup.config);
  }

  private refresh(notify: boolean): Promise<void> {
    return this.parts.served.refresh(notify);
  }

  /**
   * A client initialized with these capabilities. When the declaration changes, every server's list is taken again
   * with it (from the tool-list cache, keyed by capabilities, else live: the server restarts to declare it), and
   * clients hear tools/list_changed when that changes what is served. Lists from --snapshot files stay as saved.
   */
  clientInitialized(capabilities: Record<string, unknown> | undefined): void {
    const { declaration, opts } = this.parts;
    if (!declaration.add(capabilities) || opts.setup.fromSnapshot) return;
    this.redeclaring = (this.redeclaring ?? Promise.resolve())
      .then(() => this.relistDeclared())
      .catch((e: unknown) => opts.log(`warning: could not take the lists again: ${errorText(e)}`));
  }

  /** Resolves once the lists match the current declaration (no promise of its own per call: every call asks). */
  settled(): Promise<void> {
    return this.redeclaring ?? DONE;
  }

  private async relistDeclared(): Promise<void> {
    const { declaration, opts, pool, served } = this.parts;
    const caps = declaration.current();
    const key = declaration.key();
    if (key === this.listedWith) return;
    this.listedWith = key;
    await relistWith(caps, {
      definitions: opts.setup.definitions,
      cache: opts.setup.cache,
      known: served.known,
      list: (server) => pool.list(server),
      declaredWith: (server) => pool.declaredWith(server),
      listed: () => (this.answered ? this.refresh(true) : Promise.resolve()),
      now: opts.now,
      log: opts.log,
    });
    await this.refresh(true);
  }

  /**
   * Lists, live, the servers whose tool list is not known yet (no snapshot, no cache entry). One that fails is tried
   * again in the background (start-retry.ts) and served once it lists.
   */
  async listUnknown(onListed: (def: string, snap: ServerSnapshot) => Promise<void>): Promise<void> {
    const { declaration, opts, pool, served } = this.parts;
    const missing = opts.setup.definitions.filter((d) => !served.known.has(d.name)).map((d) => d.name);
    this.unstarted = new StartRetry({
      list: async (server, later) => {
        let snap = await pool.list(server);
        // A client declared more while this server was listing: list it again (the pool restarts it declaring that).
        if (capabilitiesKey(pool.declaredWith(server)) !== declaration.key()) snap = await pool.list(server);
        served.known.set(server, snap);
        await onListed(server, snap);
        if (later || this.answered) await this.refresh(true);
      },
      reasonOf: (server, e) => pool.health(server).lastError ?? errorText(e),
      log: opts.log,
      now: opts.now,
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

  /**
   * Resolves once every list has its schemas. Serve may start from the catalogue start cache (ServeSetup.full: meta
   * mode, whose first answers need none); the snapshot is then read in full here, once, before the first tool call
   * (a failed read is tried again on the next one). Lists taken live meanwhile are kept.
   */
  loaded(): Promise<void> {
    const { setup } = this.parts.opts;
    const { known } = this.parts.served;
    const full = setup.full;
    if (!full) return DONE;
    this.fullLoad ??= (async () => {
      const lists = await full();
      const lean = (name: string): boolean => known.get(name) === setup.known.get(name);
      // A file edited since the start: its servers as they are now (one gone from it is gone from serve too).
      for (const name of setup.known.keys()) if (!lists.has(name) && lean(name)) known.delete(name);
      for (const [name, snap] of lists) if (lean(name)) known.set(name, snap);
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
    if (this.parts.opts.setup.full)
      setImmediate(() => void this.loaded().catch((e: unknown) => this.parts.opts.log(`warning: ${errorText(e)}`)));
  }
}

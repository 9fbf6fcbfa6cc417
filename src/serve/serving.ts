/**
 * `mcp-smart serve` once its setup is read and the servers it lists live are starting (commands/serve.ts): the SDK's
 * server, the calls' paths, the store, telemetry and HTTP. commands/serve.ts loads this after those processes were
 * spawned, so the servers boot while it loads (issue 40.1: a fresh tools-mode start).
 */
import { performance } from 'node:perf_hooks';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { StdioWire } from './stdio-wire.js';
import { StdioMetaCalls } from './stdio-meta-calls.js';
import { StdioForwardCalls } from './stdio-forward-calls.js';
import { HttpForwardCalls } from './http-forward-calls.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { oauthOptions } from '../app/services/oauth.js';
import { resolvePaths } from '../app/services/paths.js';
import { resolveLimits } from '../app/services/budget-limits.js';
import { chosenStore, openUsageStore, userLabelFor } from '../app/services/store.js';
import { DEFAULT_LOAD_HINTS } from '../core/hints/load-hints.js';
import { optionalString } from '../app/services/flags.js';
import { loadUsage, servingCounts } from './deps.js';
import { ServeScope } from './scope.js';
import { checkStoreWritable, type UsageStoreDoc } from '../core/session/usage-store.js';
import { countOf } from '../reporters/format.js';
import { SmartError, errorText } from '../process/errors.js';
import { appendFileSafe } from '../process/safe-write.js';
import { RECORD_KIND } from './learn-record.js';
import { STOP_EXIT_CODES, stoppedBy, whileHandlingSignals } from '../process/signals.js';
import { shuttingDown, stoppingRefusal } from '../core/wire/request-rules.js';
import type { HttpHandle } from './http.js';
import { ServeRuntime } from './runtime.js';
import { CLIENT_GONE_FLUSH_MS, FINAL_FLUSH_MS, SERVE_STORE_TIMEOUTS, STARTUP_READ_LOCK_MS } from './learn.js';
import { createClientServer } from './sdk-server.js';
import { DEFAULT_MAX, modeAndLevel, timeoutFlags, type ListenFlags } from './serve-flags.js';
import { startListing } from './start-listing.js';
import { isLoopback } from './http-guard.js';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { declaredBy, START_WITHOUT_CLIENT_MS } from './first-answer.js';
import { LegacyListens } from './legacy-listen.js';
import { startReplica, type ReplicaHandle } from './replica/setup.js';
import { serveIdentity } from './auth/setup.js';
import { AuditLog } from './auth/audit.js';
import { reaches } from './auth/scoped-routes.js';
import { telemetryConfig } from './telemetry/config.js';
import type { Telemetry } from './telemetry/hook.js';
import type { HeapQuiet } from './heap-quiet.js';
import type { Prespawned } from './prespawn.js';
import type { ServeSetup } from './setup.js';
import type { ServeMode } from './served-view.js';

/** At shutdown, the last spans and metrics are exported within this (a collector that is down does not hold it). */
const TELEMETRY_FLUSH_MS = 3_000;
/**
 * On a signal, the client's requests in flight get this long to be answered before each still open is answered
 * with an error; then the servers are ended. Within the signal path's 5 s bound beside the servers' 1.75 s to end.
 */
export const CALL_GRACE_MS = 1_000;

export interface ServeResult {
  mode: ServeMode;
  transport: 'stdio' | 'http';
}

/** What commands/serve.ts read and started before loading this module. */
export interface ServeStart {
  setup: ServeSetup;
  listen: ListenFlags;
  heapQuiet: HeapQuiet;
  /** The processes started ahead of the pool (stdio tools/auto mode). */
  ahead: Prespawned | undefined;
  log: (text: string) => void;
}

export async function serveWith(
  ctx: CommandContext,
  opts: Record<string, unknown>,
  start: ServeStart,
): Promise<CommandOutcome<ServeResult>> {
  const { io, global } = ctx;
  const { setup, heapQuiet, ahead, log } = start;
  const { transportKind, host, port, tokenEnv, token, sessions, keys } = start.listen;
  const serveConfig = setup.config.serve ?? {};
  const userConfig = setup.config.user;
  const identity =
    transportKind === 'http'
      ? serveIdentity(opts, serveConfig.auth, {
          ...(setup.configFile ? { configFile: setup.configFile } : {}),
          ...(tokenEnv ? { tokenEnv } : {}),
          ...(typeof userConfig === 'object' && userConfig.label ? { userLabel: userConfig.label } : {}),
          log,
        })
      : undefined;
  // Anything but loopback needs a token: the fixed one, or an issuer's (by flag or serve.auth, so after the setup).
  if (transportKind === 'http' && !isLoopback(host) && !token && !identity)
    throw new SmartError('SERVE_INSECURE_BIND', { host });
  // --audit-log: created (0600) now, so a path that cannot be written is refused before serving starts.
  const auditFile = optionalString(opts.auditLog);
  const audit = auditFile ? new AuditLog(auditFile, log) : undefined;
  await audit?.open();
  const { mode, level } = modeAndLevel(opts, serveConfig);
  // Auto mode sends the plan `budget` prints: the same flags and rules, with serve.budget over budget and a
  // default window.
  const { limit } = resolveLimits(opts, {
    budget: { max: DEFAULT_MAX, ...setup.config.budget, ...serveConfig.budget },
  });
  // Only meta mode's first answers go without schemas (loadServeSetup read any other start in full).
  if (setup.full && global.debug)
    log('tool lists from the catalogue start cache; the snapshot is read in full before the first call');
  const { spawnTimeoutMs, callTimeoutMs, firstListWaitMs } = timeoutFlags(opts, serveConfig, global.timeoutMs);
  const record = optionalString(opts.record);
  // A record file that cannot be appended to (a FIFO nobody reads, a folder) is refused before serving starts.
  if (record) await appendFileSafe(record, '', { kind: RECORD_KIND });
  const counting = await servingCounts(ctx);
  // OpenTelemetry only when configured (--otlp, OTEL_EXPORTER_OTLP_*): otherwise its SDK is never loaded.
  const otel = telemetryConfig(optionalString(opts.otlp), io.env);
  const telemetry: Telemetry | undefined = otel
    ? (await import('./telemetry/otel.js')).startTelemetry(otel, log, () => performance.now())
    : undefined;
  if (otel) log(`exporting traces and metrics over OTLP/HTTP to ${otel.shown}`);
  if (otel?.ignored) log(`warning: ${otel.ignored}`);
  // --store, else the config's `store`, else the default file; a database is connected on first use, so one that
  // is down does not keep serve from starting (learning retries in the background).
  const chosen = chosenStore(optionalString(opts.store), setup.config.store);
  const store = await openUsageStore(chosen, {
    cwd: io.cwd,
    env: io.env,
    defaultFile: setup.usageStore,
    lazy: true,
    timeouts: SERVE_STORE_TIMEOUTS,
  });
  // A store learning may not write (read-only, another user's) is refused now, not found out at the first call.
  if (opts.learn !== false && store.kind === 'file') await checkStoreWritable(store.label);
  // A locked table delays serving by at most STARTUP_READ_LOCK_MS: then it ranks without the usage prior.
  let scopeDoc: Pick<UsageStoreDoc, 'projects' | 'users'> | undefined;
  const usage = await loadUsage(store, Date.now(), log, {
    lockTimeoutMs: STARTUP_READ_LOCK_MS,
    scope: (doc) => (scopeDoc = doc),
  });
  const user = userLabelFor(optionalString(opts.user), setup.config.user);

  const runtime = new ServeRuntime({
    setup,
    mode,
    level,
    limit,
    key: optionalString(opts.key) ?? serveConfig.key ?? 'mcp-smart',
    activate: opts.activate === true || serveConfig.activate === true,
    counting,
    usage,
    learn: opts.learn !== false,
    store,
    user,
    // The project is the directory serve runs in (a stdio client starts it in its working directory).
    scope: new ServeScope(io.cwd, scopeDoc, user),
    ...(opts.loadHints === false || serveConfig.loadHints === false
      ? {}
      : { loadHints: { ...DEFAULT_LOAD_HINTS, ...serveConfig.loadHints } }),
    record,
    spawnTimeoutMs,
    callTimeoutMs,
    ...(firstListWaitMs !== undefined ? { firstListWaitMs } : {}),
    log,
    ...(global.debug ? { debug: log } : {}),
    indexCacheDir: resolvePaths(io, global.cache).activeCacheDir,
    now: () => Date.now(),
    clock: () => performance.now(),
    // Stored tokens only: a server process never opens a browser (`mcp-smart login` does that).
    pool: { oauth: { ...oauthOptions(ctx), interactive: undefined }, prespawned: (def) => ahead?.take(def) },
    ...(audit ? { audit } : {}),
    ...(identity ? { subjectLabel: identity.subjectLabel } : {}),
    ...(telemetry ? { telemetry } : {}),
  });

  // Calls an earlier serve of this database kept at its shutdown (unwritten.ts) are written now, in the background.
  void runtime.learner.takeUnwritten().then(
    (n) => n > 0 && log(`${n} learned call(s) kept by an earlier serve are being written to ${store.label}`),
    (e: unknown) => log(`warning: could not take kept calls (${errorText(e)})`),
  );

  const clients = new Set<Server>();
  let http: HttpHandle | undefined;
  runtime.onServerNotification = (server, method, params) => {
    // Not to a session whose caller's serve.auth rules hide that server.
    const heard = (): Server[] => [...clients].filter((s) => reaches(runtime.identities, s, server));
    if (method === 'notifications/resources/updated' && typeof params?.uri === 'string') {
      for (const s of heard()) s.sendResourceUpdated({ uri: params.uri }).catch(() => undefined);
      // 2026-07-28 clients over HTTP hear it on a subscriptions/listen stream that named the uri.
      http?.resourceUpdated(params.uri);
    } else if (method === 'notifications/message' && params) {
      for (const s of heard()) s.sendLoggingMessage(params as never).catch(() => undefined);
    } else if (global.debug) log(`${server}: ${method}`);
  };

  let shutdownStarted = false;
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  // Why serving ends: the client going away (stdin closed) leaves time for the last write of what was learned to
  // wait out a stale store lock; a signal keeps it short.
  let clientWent = false;
  const shutdown = (): void => {
    if (shutdownStarted) return;
    shutdownStarted = true;
    done();
  };
  const clientGone = (): void => {
    if (!shutdownStarted) clientWent = true;
    shutdown();
  };
  // SIGINT/SIGTERM go through the one signal path: it aborts io.signal, which ends serving here.
  io.signal?.addEventListener('abort', shutdown, { once: true });

  let replica: ReplicaHandle | undefined;
  /** The client connection's drain (StdioWire's, HttpDrain's): set once it is open. */
  let drain: ((graceMs: number, refusal: string, abandoned: string) => Promise<number>) | undefined;
  // Handlers stay subscribed through the shutdown too, so a second Ctrl-C cannot kill serve before the servers'
  // process groups are ended.
  await whileHandlingSignals(async () => {
    try {
      await serveUntilDone();
    } finally {
      io.signal?.removeEventListener('abort', shutdown);
      heapQuiet.stop();
      // Stopped by a signal (not by the client leaving): no new requests, a grace for those in flight, an error
      // answer for the rest — while the servers behind still run, so a call about to finish is answered.
      const signal = stoppedBy();
      if (signal && !clientWent && drain) {
        const abandoned = await drain(CALL_GRACE_MS, stoppingRefusal(signal), shuttingDown(signal, CALL_GRACE_MS));
        if (abandoned > 0)
          log(
            `${signal}: ${countOf(abandoned, 'request')} still open after ${CALL_GRACE_MS} ms answered with an error`,
          );
      }
      // What is still held when serving ends: a check that requests and closed sessions left nothing behind (the
      // listeners of client connections: the endpoint's own one for 2026-07-28 listen streams is not counted).
      if (global.debug && http)
        log(
          `at shutdown: ${countOf(http.servers().length, 'HTTP session')} open, ${countOf(clients.size, 'client connection')} held, ${countOf(runtime.toolsChanged.size - 1, 'list-change listener')}, ${countOf(runtime.inFlight.askers.size, 'client route', 'client routes')} for elicitation/sampling/roots`,
        );
      await http?.close();
      await replica?.close();
      for (const s of clients) await s.close().catch(() => undefined);
      // A database's waits are bounded (lock_timeout) and what is left is kept for the next serve: no stale lock to
      // wait out as with a file.
      await runtime.close(clientWent && store.kind === 'file' ? CLIENT_GONE_FLUSH_MS : FINAL_FLUSH_MS);
      await ahead?.endUnused();
      await store.close();
      await audit?.flush();
      await telemetry?.shutdown(TELEMETRY_FLUSH_MS);
    }
  });
  const stopped = stoppedBy();
  const exitCode = stopped ? STOP_EXIT_CODES[stopped] : 0;
  return { result: { mode, transport: transportKind }, exitCode };

  async function serveUntilDone(): Promise<void> {
    const newClient = (): Server => {
      const server = createClientServer(runtime);
      clients.add(server);
      const unsubscribe = server.onclose;
      // Over stdio the connection's end is the wire's (below): an instance the SDK discards (a 2026-07-28 probe
      // followed by a 2025 request) is not the client going away.
      server.onclose = () => {
        unsubscribe?.();
        clients.delete(server);
      };
      return server;
    };
    let markReady!: () => void;
    const ready = new Promise<void>((r) => (markReady = r));
    if (transportKind === 'http') {
      // Loaded only for --transport http: the Streamable HTTP transport (and its web framework) costs a stdio start
      // ~40 ms. Bound before the servers start, so a port in use fails at once; requests wait for `ready`.
      const { startHttp } = await import('./http.js');
      const debug = global.debug ? log : undefined;
      const internal: NonNullable<Parameters<typeof startHttp>[0]['internal']> = (path, req, res) =>
        replica ? replica.internal(path, req, res) : Promise.resolve(false);
      const verifierOf = identity ? (await import('./auth/verify.js')).issuerVerifier : undefined;
      const auth = identity && verifierOf ? (url: string) => identity.gate(url, verifierOf) : undefined;
      http = await startHttp({
        host,
        port,
        token,
        auth,
        createServer: newClient,
        log,
        debug,
        sessions,
        ready,
        internal,
        traceHeader: telemetry !== undefined,
        keys,
        calls: new HttpForwardCalls(runtime),
      });
      const listening = http;
      drain = (graceMs, refusal, abandoned) => listening.drain(graceMs, refusal, abandoned);
      replica = startReplica({
        keys: keys!,
        bridge: runtime.bridge,
        url: http.url,
        env: io.env,
        store: chosen,
        roundTimeoutMs: callTimeoutMs + 5_000,
        log,
        debug,
      });
      // 2026-07-28 clients hear of list changes on their subscriptions/listen stream (2025 ones on their session).
      runtime.toolsChanged.add(() => listening.toolsChanged());
      runtime.othersChanged.add((changed) => listening.othersChanged(changed));
    }
    await runtime.init();
    // The servers whose lists are not known start in the background (at most 16 at a time): the client is answered
    // meanwhile (first-answer.ts), and hears tools/list_changed as their lists arrive.
    // After the lists for the client's declaration (cache, else live — that starts each server declaring it): what
    // is still not known then is started here.
    runtime.first.begin = startListing(runtime, setup, mode, log);
    // Meta mode starts them once its first tools/list is out (runtime.listReady) or a tool is called.
    const startServers = (): void => {
      if (!runtime.metaOnly) void runtime.first.start();
    };
    if (transportKind === 'stdio') {
      process.stdin.once('end', clientGone);
      process.stdin.once('close', clientGone);
      // Both eras on one connection: its opening (initialize, or a 2026-07-28 request) pins the era. Each instance
      // the SDK asks for is a fresh Server (one configured for one era is never reused for the other).
      const wire = new StdioWire(process.stdin, process.stdout, log);
      drain = (graceMs, refusal, abandoned) => wire.drain(graceMs, refusal, abandoned);
      let current: ReturnType<typeof newClient> | undefined;
      serveStdio(() => (current = newClient()), { transport: wire });
      const closeConnection = wire.onclose;
      wire.onclose = () => {
        closeConnection?.();
        clientGone();
      };
      // The servers start once the client's first message said what it declares, so each starts once, declaring
      // it (a server lists some tools only to a client that declares roots or elicitation); or after a second.
      const unprompted = setTimeout(startServers, START_WITHOUT_CLIENT_MS);
      unprompted.unref();
      const deliver = wire.onmessage;
      wire.onmessage = (message) => {
        // A connection opened with initialize is a 2025 one: its subscriptions/listen is answered on the wire.
        const legacy = (message as { method?: string }).method === 'initialize';
        const listens = new LegacyListens(
          (m) => wire.send(m),
          () => (current ?? (current = newClient())).getCapabilities(),
        );
        // Its find_tool, describe_tool and list_tools are answered on the wire (stdio-meta-calls.ts).
        const metaCalls = new StdioMetaCalls(
          runtime,
          (m) => wire.send(m),
          () => current?.getClientVersion() !== undefined,
        );
        // Its plain calls of the servers' tools are run on the wire too (stdio-forward-calls.ts).
        const forwardCalls = new StdioForwardCalls(
          runtime,
          (m) => wire.send(m),
          () => current,
          (m) => deliver?.(m),
        );
        wire.onmessage = legacy
          ? (m) => void (listens.take(m) || metaCalls.take(m) || forwardCalls.take(m) || deliver?.(m))
          : deliver;
        clearTimeout(unprompted);
        const caps = declaredBy(message, CLIENT_CAPABILITIES_META_KEY);
        if (caps) runtime.clientInitialized(caps);
        startServers();
        deliver?.(message);
      };
    } else if (http) {
      // A shared HTTP gateway answers once its servers have listed (bounded by their spawn timeouts): a server that
      // arrived mid-call put tools/list_changed on that call's stream (conformance server-stateless).
      startServers();
      if (!runtime.metaOnly) await runtime.first.start();
      markReady();
      const guard = identity
        ? ` (access tokens of ${identity.issuer} required)`
        : token
          ? ' (bearer token required)'
          : '';
      log(`listening on ${http.url}${guard}`);
    }
    await finished;
  }
}

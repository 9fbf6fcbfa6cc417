/** One client session: the SDK's low-level Server answering from the shared runtime. */
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  type Server,
} from '@modelcontextprotocol/server';
import type { ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { isSmartError } from '../process/errors.js';
import { listCacheHint, readCacheHint, type HintedList, type ListCacheHint } from './cache-hint.js';
import { buildRoutes, serverForUri, type Routes } from './passthrough.js';
import { callServed } from './served-call.js';
import { type ServeRuntime, type Asker, type CallContext, type ToolResult } from './runtime.js';
import type { OtherLists } from './served-list.js';
import { MissingCapability, UnknownRequestState, type HeldContext } from './bridge.js';
import { callLog } from './call-log.js';
import { LazyAjvValidator } from './sdk-shims.js';
import { callerOf } from './auth/caller.js';
import { audited } from './auth/audit-call.js';
import { listedFor, serverScope } from './auth/scoped-routes.js';
import { clientKey } from './client-key.js';
import { takeSettled } from './settled-calls.js';
import { clientAsker } from './client-asker.js';
import { ParamsCheckedServer } from './invalid-params.js';

type CallExtra = ServerContext;

const SERVER_INFO = { name: 'mcp-smart', version: '0.1.0' };

/**
 * What this proxy declares: tools always; prompts, resources and completion when a server behind has them — or may
 * have them: a client that connects while servers are still starting is answered at once (first-answer.ts), and
 * what it is told it can use must not depend on how warm the machine was.
 */
export function serveCapabilities(runtime: ServeRuntime): ServerCapabilities {
  const servers = [...runtime.known.values()];
  const starting = stillStarting(runtime);
  // logging: the servers' log messages are forwarded, and logging/setLevel reaches the running ones.
  const caps: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  if (starting || servers.some((s) => s.prompts !== undefined)) caps.prompts = { listChanged: true };
  if (starting || servers.some((s) => s.resources !== undefined || s.resourceTemplates !== undefined))
    caps.resources = { subscribe: true, listChanged: true };
  if (caps.prompts || caps.resources) caps.completions = {};
  return caps;
}

/** True while a server serve fronts has not listed yet (a client connecting now is answered before it has). */
const stillStarting = (runtime: ServeRuntime): boolean =>
  !runtime.first.settled && runtime.opts.setup.definitions.some((d) => !runtime.known.has(d.name));

/** Whether a request is a 2026-07-28 one: its `_meta` envelope names the version. */
const modernRequest = (ctx: ServerContext): boolean =>
  (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY] !== undefined;

/** Creates a Server for one client connection, wired to the shared runtime. */
export function createClientServer(runtime: ServeRuntime): Server {
  const capabilities = serveCapabilities(runtime);
  const server = new ParamsCheckedServer(SERVER_INFO, {
    capabilities,
    instructions: runtime.instructions(),
    jsonSchemaValidator: new LazyAjvValidator(),
  });
  let routes: Routes | undefined;
  let routesOf: unknown;
  const currentRoutes = (): Routes => {
    if (!routes || routesOf !== runtime.view) {
      routes = buildRoutes([...runtime.known.values()], runtime.opts.key);
      routesOf = runtime.view;
    }
    return routes;
  };

  const toolsChanged = (): void => void server.sendToolListChanged().catch(() => undefined);
  // Servers arriving after this client connected, or a server's own list_changed, change the prompts and resources.
  const othersChanged = (changed: OtherLists): void => {
    if (changed.prompts && capabilities.prompts) void server.sendPromptListChanged().catch(() => undefined);
    if (changed.resources && capabilities.resources) void server.sendResourceListChanged().catch(() => undefined);
  };
  runtime.toolsChanged.add(toolsChanged);
  runtime.othersChanged.add(othersChanged);
  server.onclose = () => {
    runtime.toolsChanged.delete(toolsChanged);
    runtime.othersChanged.delete(othersChanged);
    runtime.inFlight.askers.delete(server);
  };
  // An instance closed without ever being connected fires no onclose (the SDK's HTTP handler makes one for each
  // subscriptions/listen stream, reads its capabilities and closes it): what it holds is released all the same.
  const close = server.close.bind(server);
  server.close = async () => {
    const connected = server.transport !== undefined;
    await close();
    if (!connected) server.onclose?.();
  };

  const askerOf = (extra?: CallExtra): Asker | undefined => clientAsker(server, extra);

  server.oninitialized = () => {
    runtime.clientInitialized(server.getClientCapabilities());
    const asker = askerOf();
    if (asker) runtime.inFlight.askers.set(server, asker);
  };

  server.setNotificationHandler('notifications/roots/list_changed', () => runtime.rootsChanged());

  server.setRequestHandler('logging/setLevel', async (req) => {
    await runtime.setLogLevel(req.params.level);
    return {};
  });

  // The list waits for the lists taken with this client's capabilities (a cache read, or the servers' restart).
  server.setRequestHandler('tools/list', async (_req, ctx) => {
    declareModern(ctx);
    // At once from serve's own tools or the cache; servers still starting are waited for a short while at most.
    await runtime.listReady();
    // A caller with a verified token sees what their serve.auth user and group filters let through.
    const view = runtime.identities.viewFor(runtime.view, callerOf(ctx.http?.authInfo));
    const tools = view.tools.map((t) => t.definition) as never;
    runtime.loadSoon();
    return { tools, ...hintFor(ctx, 'tools') };
  });

  /** A 2026-07-28 request (its envelope names the version) gets the cache hint derived from the servers behind. */
  function hintFor(ctx: CallExtra, list: HintedList): ListCacheHint | Record<string, never> {
    if (!modernRequest(ctx)) return {};
    return listCacheHint(
      {
        definitions: runtime.opts.setup.definitions,
        known: runtime.known,
        cacheTtlMs: runtime.opts.setup.cache?.ttlMs,
        now: runtime.opts.now(),
      },
      list,
    );
  }

  server.setRequestHandler('tools/call', async (req, extra) => {
    // A call run on a forward path, handed to the SDK to answer, run or still running (settled-calls.ts).
    const settled = takeSettled(server, extra.mcpReq.id);
    if (settled) return settled(extra) as never;
    const authInfo = extra.http?.authInfo;
    const caller = callerOf(authInfo);
    return audited(runtime, req.params, authInfo, caller, () =>
      inRounds(req.params, extra, (ctx) =>
        callServed(runtime, req.params, { ...ctx, _meta: req.params._meta, ...(caller ? { caller } : {}) }),
      ),
    );
  });

  /**
   * Answers a request that may reach a server behind: a 2025 client is asked the server's requests directly; for a
   * 2026-07-28 client a server that asks mid-call is answered through input_required rounds (bridge.ts).
   */
  async function inRounds(
    params: { name?: string; uri?: string; _meta?: { progressToken?: unknown } },
    extra: CallExtra,
    run: (ctx: CallContext) => Promise<ToolResult>,
  ): Promise<never> {
    const token = params._meta?.progressToken as string | number | undefined;
    const onprogress =
      token === undefined
        ? undefined
        : (p: { progress: number; total?: number; message?: string }) =>
            void extra.mcpReq
              .notify({ method: 'notifications/progress', params: { ...p, progressToken: token } })
              .catch(() => undefined);
    const modern = declareModern(extra);
    // Whose call it is, for the bounds kept per client (held calls, calls waiting for a server).
    const client = clientKey(callerOf(extra.http?.authInfo)?.subject);
    if (!modern)
      return (await run({ signal: extra.mcpReq.signal, asker: askerOf(extra), onprogress, client })) as never;
    const name = `${extra.mcpReq.method} ${params.name ?? params.uri ?? ''}`;
    const envelope = extra.mcpReq.envelope as Record<string, unknown>;
    const onlog = callLog(envelope[LOG_LEVEL_META_KEY], (p) => {
      void extra.mcpReq.notify({ method: 'notifications/message', params: p }).catch(() => undefined);
    });
    const round = { name, capabilities: modern, signal: extra.mcpReq.signal, onprogress, onlog, client };
    const state = extra.mcpReq.requestState();
    try {
      return (
        typeof state === 'string'
          ? await runtime.bridge.resume(state, round, extra.mcpReq.inputResponses)
          : await runtime.bridge.start(round, (held: HeldContext) => run(held))
      ) as never;
    } catch (e) {
      if (e instanceof UnknownRequestState)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, e.message, { reason: 'invalid_request_state' });
      if (e instanceof MissingCapability)
        throw new MissingRequiredClientCapabilityError({ requiredCapabilities: e.required }, e.message);
      throw e;
    }
  }

  /**
   * A 2026-07-28 request's declared client capabilities (declared in turn to the servers behind); else undefined.
   * A client on that era sends no `initialize` (so `oninitialized` never fires): each request carries its
   * declaration in its own `_meta` envelope. Claude Code 2.1.332 talks that era to serve (it probes with
   * `server/discover` first), so without this its tools/list was answered from lists taken with nothing declared.
   */
  function declareModern(extra: CallExtra): Record<string, unknown> | undefined {
    const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
    if (!envelope) return undefined;
    const caps = (envelope[CLIENT_CAPABILITIES_META_KEY] as Record<string, unknown> | undefined) ?? {};
    runtime.clientInitialized(caps);
    return caps;
  }

  const forward = async (
    server: string | undefined,
    method: string,
    params: Record<string, unknown>,
    ctx: CallContext,
  ): Promise<never> => {
    if (!server)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `mcp-smart: no server behind has ${JSON.stringify(params)}`,
      );
    try {
      return (await runtime.inCall(server, ctx, method, params)) as never;
    } catch (e) {
      if (isSmartError(e)) throw new ProtocolError(ProtocolErrorCode.InternalError, `mcp-smart: ${e.message}`);
      throw e;
    }
  };
  /** A request that cannot ask the client (no input_required on it): in flight with this client as its asker. */
  const plain = (extra: CallExtra): CallContext => ({
    signal: extra.mcpReq.signal,
    asker: askerOf(extra),
    client: clientKey(callerOf(extra.http?.authInfo)?.subject),
  });

  // The prompts and resources of a server a caller's serve.auth rules hide altogether are neither listed nor reached.
  const { refusalFor, reachable } = serverScope(runtime.identities);
  if (capabilities.prompts) passPrompts();
  if (capabilities.resources) passResources();
  if (capabilities.completions) passCompletions();
  return server;

  function passPrompts(): void {
    server.setRequestHandler('prompts/list', async (_req, ctx) => {
      await runtime.otherListReady();
      const { prompts } = listedFor(currentRoutes(), refusalFor(ctx));
      return { prompts: prompts.map((p) => p.served) as never, ...hintFor(ctx, 'prompts') };
    });
    server.setRequestHandler('prompts/get', async (req, extra) => {
      if (!runtime.first.settled) await runtime.first.listed();
      const route = currentRoutes().promptByName.get(req.params.name);
      if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `mcp-smart: no prompt "${req.params.name}"`);
      reachable(extra, route.server, `prompt "${req.params.name}"`);
      return inRounds(req.params, extra, (ctx) =>
        forward(route.server, 'prompts/get', { ...req.params, name: route.name }, ctx),
      );
    });
  }

  function passResources(): void {
    // Like tools/list, the first lists wait for the servers still starting (a short while at most).
    server.setRequestHandler('resources/list', async (_req, ctx) => {
      await runtime.otherListReady();
      const { resources } = listedFor(currentRoutes(), refusalFor(ctx));
      return { resources: resources as never, ...hintFor(ctx, 'resources') };
    });
    server.setRequestHandler('resources/templates/list', async (_req, ctx) => {
      await runtime.otherListReady();
      const { templates } = listedFor(currentRoutes(), refusalFor(ctx));
      return { resourceTemplates: templates as never, ...hintFor(ctx, 'resourceTemplates') };
    });
    server.setRequestHandler('resources/read', async (req, extra) => {
      if (!runtime.first.settled) await runtime.first.listed();
      const owner = reachable(extra, byUri(req.params.uri), `resource "${req.params.uri}"`);
      const result: Record<string, unknown> = await inRounds(req.params, extra, (ctx) =>
        forward(owner, 'resources/read', req.params, ctx),
      );
      // A 2026-07-28 read keeps its server's own hint, private when that server is credentialed (cache-hint.ts).
      if (!modernRequest(extra) || result.resultType === 'input_required') return result as never;
      const def = runtime.opts.setup.definitions.find((d) => d.name === owner);
      return { ...result, ...readCacheHint(def, result) } as never;
    });
    server.setRequestHandler('resources/subscribe', async (req, extra) =>
      forward(
        reachable(extra, byUri(req.params.uri), `resource "${req.params.uri}"`),
        'resources/subscribe',
        req.params,
        plain(extra),
      ),
    );
    server.setRequestHandler('resources/unsubscribe', async (req, extra) =>
      forward(
        reachable(extra, byUri(req.params.uri), `resource "${req.params.uri}"`),
        'resources/unsubscribe',
        req.params,
        plain(extra),
      ),
    );
  }

  function passCompletions(): void {
    server.setRequestHandler('completion/complete', async (req, extra) => {
      const ctx = plain(extra);
      const ref = req.params.ref;
      if (ref.type === 'ref/prompt') {
        const route = currentRoutes().promptByName.get(ref.name);
        if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `mcp-smart: no prompt "${ref.name}"`);
        reachable(extra, route.server, `prompt "${ref.name}"`);
        return forward(route.server, 'completion/complete', { ...req.params, ref: { ...ref, name: route.name } }, ctx);
      }
      return forward(reachable(extra, byUri(ref.uri), `resource "${ref.uri}"`), 'completion/complete', req.params, ctx);
    });
  }

  function byUri(uri: string): string | undefined {
    return serverForUri(currentRoutes(), [...runtime.known.values()], uri);
  }
}

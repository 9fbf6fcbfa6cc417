/** One client session: the SDK's low-level Server answering from the shared runtime. */
import { ResultSchema } from '@modelcontextprotocol/core';
import { CLIENT_CAPABILITIES_META_KEY, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { SmartError, isSmartError } from '../errors.js';
import { buildRoutes, serverForUri, type Routes } from './passthrough.js';
import { hiddenError } from './meta.js';
import { ServeRuntime, type Asker, type CallContext, type ToolResult } from './runtime.js';

type CallExtra = ServerContext;

const SERVER_INFO = { name: 'mcp-smart', version: '0.1.0' };

/** What this proxy declares: tools always; prompts, resources and completion when a server behind has them. */
export function serveCapabilities(runtime: ServeRuntime): ServerCapabilities {
  const servers = [...runtime.known.values()];
  // logging: the servers' log messages are forwarded, and logging/setLevel reaches the running ones.
  const caps: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  if (servers.some((s) => s.prompts !== undefined)) caps.prompts = { listChanged: true };
  if (servers.some((s) => s.resources !== undefined || s.resourceTemplates !== undefined))
    caps.resources = { subscribe: true, listChanged: true };
  if (caps.prompts || caps.resources) caps.completions = {};
  return caps;
}

/** JSON-RPC error for a request the proxy itself cannot route. */
const routeError = (e: SmartError): ProtocolError => new ProtocolError(ProtocolErrorCode.InvalidParams, e.message);

/** Creates a Server for one client connection, wired to the shared runtime. */
export function createClientServer(runtime: ServeRuntime): Server {
  const capabilities = serveCapabilities(runtime);
  const server = new Server(SERVER_INFO, {
    capabilities,
    instructions: runtime.instructions(),
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
  runtime.toolsChanged.add(toolsChanged);
  server.onclose = () => {
    runtime.toolsChanged.delete(toolsChanged);
    runtime.askers.delete(server);
  };

  /** This client, when it accepts elicitation or sampling; asked on the given call's stream when there is one. */
  const askerOf = (extra?: CallExtra): Asker | undefined => {
    const caps = (server.getClientCapabilities() as Record<string, unknown> | undefined) ?? {};
    if (caps.elicitation === undefined && caps.sampling === undefined && caps.roots === undefined) return undefined;
    return {
      capabilities: caps,
      ask: (method, params, signal) =>
        extra
          ? extra.mcpReq.send({ method, params } as never, ResultSchema, { signal })
          : server.request({ method, params } as never, ResultSchema, { signal }),
    };
  };

  /**
   * A client on the 2026-07-28 era sends no `initialize` (so `oninitialized` never fires): each request carries its
   * declaration in its own `_meta` envelope. Claude Code 2.1.332 talks that era to serve (it probes with
   * `server/discover` first), so without this its tools/list was answered from lists taken with nothing declared.
   */
  const declaredBy = (ctx: ServerContext): void => {
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    const caps = envelope?.[CLIENT_CAPABILITIES_META_KEY];
    if (typeof caps === 'object' && caps !== null) runtime.clientInitialized(caps as Record<string, unknown>);
  };

  server.oninitialized = () => {
    runtime.clientInitialized(server.getClientCapabilities());
    const asker = askerOf();
    if (asker) runtime.askers.set(server, asker);
  };

  server.setNotificationHandler('notifications/roots/list_changed', () => runtime.rootsChanged());

  server.setRequestHandler('logging/setLevel', async (req) => {
    await runtime.setLogLevel(req.params.level);
    return {};
  });

  // The list waits for the lists taken with this client's capabilities (a cache read, or the servers' restart).
  server.setRequestHandler('tools/list', async (_req, ctx) => {
    declaredBy(ctx);
    await runtime.settled();
    return { tools: runtime.view.tools.map((t) => t.definition) as never };
  });

  server.setRequestHandler('tools/call', async (req, extra) => {
    const token = req.params._meta?.progressToken;
    const ctx: CallContext = {
      signal: extra.mcpReq.signal,
      asker: askerOf(extra),
      _meta: req.params._meta,
      onprogress:
        token === undefined
          ? undefined
          : (p) =>
              void extra.mcpReq
                .notify({ method: 'notifications/progress', params: { ...p, progressToken: token } })
                .catch(() => undefined),
    };
    declaredBy(extra);
    await runtime.settled();
    const served = runtime.view.byName.get(req.params.name);
    const hidden = served ? undefined : hiddenError(runtime.view, req.params.name);
    if (hidden) throw routeError(hidden);
    if (!served)
      throw routeError(
        new SmartError('SERVE_UNKNOWN_TOOL', {
          name: req.params.name,
          hint: 'Call tools/list for the served names, or find_tool to search.',
        }),
      );
    const args = req.params.arguments ?? {};
    let result: ToolResult;
    try {
      switch (served.meta) {
        case 'find':
          result = await runtime.findTool(args);
          break;
        case 'describe':
          result = runtime.describeTool(args);
          break;
        case 'list':
          result = runtime.listTools(args);
          break;
        case 'call':
          result = await runtime.callThroughMeta(args, false, ctx);
          break;
        case 'callRead':
          result = await runtime.callThroughMeta(args, true, ctx);
          break;
        default:
          result = await runtime.forward(served.entry!, req.params.arguments, ctx);
      }
    } catch (e) {
      result = ServeRuntime.failureResult(e);
    }
    return result as never;
  });

  const forward = async (
    server: string | undefined,
    method: string,
    params: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<never> => {
    if (!server)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `mcp-smart: no server behind has ${JSON.stringify(params)}`,
      );
    try {
      return (await runtime.pool.run(server, (s) =>
        s.request(method, params, { timeoutMs: runtime.opts.callTimeoutMs, signal }),
      )) as never;
    } catch (e) {
      if (isSmartError(e)) throw new ProtocolError(ProtocolErrorCode.InternalError, `mcp-smart: ${e.message}`);
      throw e;
    }
  };

  if (capabilities.prompts) passPrompts();
  if (capabilities.resources) passResources();
  if (capabilities.completions) passCompletions();
  return server;

  function passPrompts(): void {
    server.setRequestHandler('prompts/list', () => ({
      prompts: currentRoutes().prompts.map((p) => p.served) as never,
    }));
    server.setRequestHandler('prompts/get', async (req, ctx) => {
      const route = currentRoutes().promptByName.get(req.params.name);
      if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `mcp-smart: no prompt "${req.params.name}"`);
      return forward(route.server, 'prompts/get', { ...req.params, name: route.name }, ctx.mcpReq.signal);
    });
  }

  function passResources(): void {
    server.setRequestHandler('resources/list', () => ({ resources: currentRoutes().resources as never }));
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: currentRoutes().templates as never,
    }));
    server.setRequestHandler('resources/read', async (req, ctx) =>
      forward(byUri(req.params.uri), 'resources/read', req.params, ctx.mcpReq.signal),
    );
    server.setRequestHandler('resources/subscribe', async (req, ctx) =>
      forward(byUri(req.params.uri), 'resources/subscribe', req.params, ctx.mcpReq.signal),
    );
    server.setRequestHandler('resources/unsubscribe', async (req, ctx) =>
      forward(byUri(req.params.uri), 'resources/unsubscribe', req.params, ctx.mcpReq.signal),
    );
  }

  function passCompletions(): void {
    server.setRequestHandler('completion/complete', async (req, ctx) => {
      const ref = req.params.ref;
      if (ref.type === 'ref/prompt') {
        const route = currentRoutes().promptByName.get(ref.name);
        if (!route) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `mcp-smart: no prompt "${ref.name}"`);
        return forward(
          route.server,
          'completion/complete',
          { ...req.params, ref: { ...ref, name: route.name } },
          ctx.mcpReq.signal,
        );
      }
      return forward(byUri(ref.uri), 'completion/complete', req.params, ctx.mcpReq.signal);
    });
  }

  function byUri(uri: string): string | undefined {
    return serverForUri(currentRoutes(), [...runtime.known.values()], uri);
  }
}

// ServerSession: one live server — start, list, forward a call unchanged with progress and cancellation, ping, close.
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ServerSession } from '../../src/core/connect/server-session.js';
import type { ServerDefinition } from '../../src/core/types.js';

const def: ServerDefinition = { name: 'live', transport: 'stdio', enabled: true, source: 'test', scope: 'explicit' };

function liveServer(): { server: Server; cancelled: string[] } {
  const cancelled: string[] = [];
  const server = new Server(
    { name: 'live', version: '1.0.0' },
    { capabilities: { tools: {} }, instructions: 'Be kind.' },
  );
  server.setRequestHandler('tools/list', () => ({
    tools: [
      { name: 'echo', inputSchema: { type: 'object' } },
      { name: 'slow', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler('tools/call', async (req, ctx) => {
    if (req.params.name === 'echo')
      return {
        content: [{ type: 'text', text: JSON.stringify(req.params.arguments) }],
        structuredContent: { got: req.params.arguments ?? null },
        isError: false,
        _meta: { trace: 'abc' },
      };
    const token = req.params._meta?.progressToken;
    if (token !== undefined)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 2 },
      });
    if (!ctx.mcpReq.signal.aborted)
      await new Promise<void>((resolve) =>
        ctx.mcpReq.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    cancelled.push(String(ctx.mcpReq.signal.reason ?? 'aborted'));
    return { content: [] };
  });
  return { server, cancelled };
}

async function started(): Promise<{ session: ServerSession; cancelled: string[]; closed: () => boolean }> {
  const { server, cancelled } = liveServer();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  let closedFlag = false;
  const session = new ServerSession(def, { createTransport: () => a, onClose: () => (closedFlag = true) });
  await session.start({ timeoutMs: 5000 });
  return { session, cancelled, closed: () => closedFlag };
}

describe('ServerSession', () => {
  it('starts, reports server info and instructions, and lists tools', async () => {
    const { session } = await started();
    expect(session.state).toBe('ready');
    expect(session.serverInfo?.name).toBe('live');
    expect(session.instructions).toBe('Be kind.');
    const listed = await session.listEverything(undefined, 5000, 10);
    expect(listed.lists.tools.map((t) => t.name)).toEqual(['echo', 'slow']);
    expect(await session.ping(1000)).toBe(true);
    await session.close();
    expect(session.state).toBe('closed');
  });

  it('returns the CallToolResult unchanged (content, structuredContent, isError, _meta)', async () => {
    const { session } = await started();
    const result = await session.callTool({ name: 'echo', arguments: { a: 1 } }, { timeoutMs: 5000 });
    expect(result).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { got: { a: 1 } },
      isError: false,
      _meta: { trace: 'abc' },
    });
    await session.close();
  });

  it('forwards progress and cancels the call on the server when the caller aborts', async () => {
    const { session, cancelled } = await started();
    const controller = new AbortController();
    const progress: number[] = [];
    const call = session.callTool(
      { name: 'slow' },
      {
        timeoutMs: 5000,
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          controller.abort('user stopped');
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(progress).toEqual([1]);
    for (let i = 0; i < 100 && cancelled.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(cancelled).toEqual(['user stopped']);
    await session.close();
  });

  it('calls after close fail with a closed-connection error', async () => {
    const { session } = await started();
    await session.close();
    await expect(session.callTool({ name: 'echo' }, { timeoutMs: 1000 })).rejects.toThrow(/Connection closed/);
    expect(await session.ping(100)).toBe(false);
  });
});

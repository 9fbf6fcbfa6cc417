// A local stand-in for the Anthropic Messages API, for driving the real Claude Code CLI offline
// (ANTHROPIC_BASE_URL): every request body is kept, and each is answered with the content blocks `reply` returns,
// streamed as the API's server-sent events (message_start, content_block_* with text or tool_use input deltas,
// message_delta with the stop reason, message_stop). Nothing here decides what Claude Code does with tools: the
// CLI itself chooses which tools to send, runs its own ToolSearch on a tool_use, and sends the result back.
import { createServer, type Server } from 'node:http';

export type ScriptedBlock =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

/** The parts of a Messages API request the tests read. */
export interface ModelRequest {
  url: string;
  model?: string;
  tools?: { name: string; description?: string; defer_loading?: boolean; [k: string]: unknown }[];
  system?: unknown;
  messages?: { role: string; content: string | { type: string; [k: string]: unknown }[] }[];
}

export interface ScriptedModel {
  baseUrl: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

function events(blocks: ScriptedBlock[], stop: string, id: number): string {
  const ev: [string, Record<string, unknown>][] = [
    [
      'message_start',
      {
        message: {
          id: `msg_${id}`,
          type: 'message',
          role: 'assistant',
          model: 'scripted',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((b, index) => {
    if (b.type === 'tool_use') {
      ev.push([
        'content_block_start',
        { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } },
      ]);
      ev.push([
        'content_block_delta',
        { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } },
      ]);
    } else {
      ev.push(['content_block_start', { index, content_block: { type: 'text', text: '' } }]);
      ev.push(['content_block_delta', { index, delta: { type: 'text_delta', text: b.text } }]);
    }
    ev.push(['content_block_stop', { index }]);
  });
  ev.push(['message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } }]);
  ev.push(['message_stop', {}]);
  return ev.map(([type, data]) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`).join('');
}

/** Starts the stand-in on a loopback port; `reply` gets each parsed request and returns the assistant's blocks. */
export async function scriptedModel(reply: (req: ModelRequest) => ScriptedBlock[]): Promise<ScriptedModel> {
  const requests: ModelRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      let parsed: ModelRequest = { url: req.url ?? '' };
      try {
        parsed = { ...(JSON.parse(body) as ModelRequest), url: req.url ?? '' };
      } catch {
        /* not a JSON request: answered with no content */
      }
      requests.push(parsed);
      const blocks = parsed.messages ? reply(parsed) : [];
      const stop = blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(events(blocks, stop, requests.length));
    });
  });
  return { ...(await listenLoopback(server)), requests };
}

/** Listens on a free loopback port: the base URL, and a close that ends open connections too. */
export async function listenLoopback(server: Server): Promise<{ baseUrl: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The text of every system block and system-role message of a request (where Claude Code names deferred tools). */
export function systemText(req: ModelRequest): string {
  const parts: string[] = [];
  const collect = (c: unknown): void => {
    if (typeof c === 'string') parts.push(c);
    else if (Array.isArray(c)) for (const b of c) collect((b as { text?: unknown }).text);
  };
  collect(req.system);
  for (const m of req.messages ?? []) if (m.role === 'system') collect(m.content);
  return parts.join('\n');
}

// Local stand-ins for the three model APIs the real clients speak, for driving a client through whole turns offline:
// Anthropic Messages (Claude Code, ANTHROPIC_BASE_URL), Gemini generateContent (Gemini CLI, GOOGLE_GEMINI_BASE_URL)
// and OpenAI Responses (Codex, a model provider's base_url). Every request is kept raw and read into one shape —
// the tool names offered and the tool results sent back — and each is answered by a script: the next tool to call,
// or a closing text. Nothing here decides what a client does with tools; each CLI sends what it sends.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ClientKind } from './real-clients.js';
import { listenLoopback } from './scripted-model.js';

/** A tool result as the client carried it to the model: the call's name and the API's own result value. */
export interface SentResult {
  name: string;
  /** Claude: the tool_result block; Gemini: the functionResponse part; Codex: the function_call_output item. */
  value: Record<string, unknown>;
}

export interface SeenRequest {
  /** The function / tool names offered in this request (deferred ones included). */
  tools: string[];
  /** Every tool result in the conversation so far, oldest first. */
  results: SentResult[];
  raw: Record<string, unknown>;
}

/** The model's next step; `delayMs`: the answer comes that much later (a model taking its time). */
export type Step = ({ call: string; args?: Record<string, unknown> } | { text: string }) & { delayMs?: number };

export interface ModelStandIn {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

/** Tool names and results in one request, per API. */
function read(kind: ClientKind, body: Obj): Omit<SeenRequest, 'raw'> {
  if (kind === 'claude') {
    const names = new Map<string, string>();
    const results: SentResult[] = [];
    for (const m of arr(body.messages))
      for (const b of arr(m.content)) {
        if (b.type === 'tool_use') names.set(String(b.id), String(b.name));
        if (b.type === 'tool_result') results.push({ name: names.get(String(b.tool_use_id)) ?? '?', value: b });
      }
    return { tools: arr(body.tools).map((t) => String(t.name)), results };
  }
  if (kind === 'gemini') {
    // A result's image goes in a user part of its own right after its functionResponse: kept with that result.
    const results: SentResult[] = [];
    for (const c of arr(body.contents))
      for (const p of arr(c.parts)) {
        if (p.functionResponse) results.push({ name: String((p.functionResponse as Obj).name), value: p });
        else if (p.inlineData && c.role === 'user' && results.length > 0) {
          const last = results.at(-1)!;
          last.value = { ...last.value, inlineData: [...arr(last.value.inlineData), p.inlineData as Obj] };
        }
      }
    const tools = arr(body.tools)
      .flatMap((t) => arr(t.functionDeclarations))
      .map((d) => String(d.name));
    return { tools, results };
  }
  const names = new Map<string, string>();
  const results: SentResult[] = [];
  for (const item of arr(body.input)) {
    if (item.type === 'function_call') {
      const ns = typeof item.namespace === 'string' ? `${item.namespace}/` : '';
      names.set(String(item.call_id), `${ns}${String(item.name)}`);
    }
    if (item.type === 'function_call_output')
      results.push({ name: names.get(String(item.call_id)) ?? '?', value: item });
  }
  const tools = arr(body.tools).flatMap((t) =>
    t.type === 'namespace' ? arr(t.tools).map((n) => `${String(t.name)}/${String(n.name)}`) : [String(t.name)],
  );
  return { tools, results };
}

const sse = (events: [string | undefined, Obj][]): string =>
  events.map(([type, data]) => `${type ? `event: ${type}\n` : ''}data: ${JSON.stringify(data)}\n\n`).join('');

/** Codex offers MCP tools in a namespace (read here as `<namespace>/<name>`); a call names both. */
function codexName(call: string): { name: string; namespace?: string } {
  const slash = call.indexOf('/');
  return slash < 0 ? { name: call } : { namespace: call.slice(0, slash), name: call.slice(slash + 1) };
}

/** The streamed answer for `step`, as the API sends it. */
function answer(kind: ClientKind, step: Step, n: number): string {
  if (kind === 'claude') {
    const block =
      'call' in step ? { type: 'tool_use', id: `toolu_${n}`, name: step.call, input: {} } : { type: 'text', text: '' };
    const delta =
      'call' in step
        ? { type: 'input_json_delta', partial_json: JSON.stringify(step.args ?? {}) }
        : { type: 'text_delta', text: step.text };
    const message = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'scripted', content: [] };
    const usage = { input_tokens: 1, output_tokens: 1 };
    return sse(
      (
        [
          ['message_start', { message: { ...message, stop_reason: null, stop_sequence: null, usage } }],
          ['content_block_start', { index: 0, content_block: block }],
          ['content_block_delta', { index: 0, delta }],
          ['content_block_stop', { index: 0 }],
          [
            'message_delta',
            { delta: { stop_reason: 'call' in step ? 'tool_use' : 'end_turn', stop_sequence: null }, usage },
          ],
          ['message_stop', {}],
        ] as [string, Obj][]
      ).map(([t, d]) => [t, { type: t, ...d }]),
    );
  }
  if (kind === 'gemini') {
    const part = 'call' in step ? { functionCall: { name: step.call, args: step.args ?? {} } } : { text: step.text };
    const usageMetadata = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };
    return sse([
      [undefined, { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP' }], usageMetadata }],
    ]);
  }
  const item =
    'call' in step
      ? {
          type: 'function_call',
          id: `fc_${n}`,
          call_id: `call_${n}`,
          ...codexName(step.call),
          arguments: JSON.stringify(step.args ?? {}),
        }
      : { type: 'message', id: `msg_${n}`, role: 'assistant', content: [{ type: 'output_text', text: step.text }] };
  const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2 };
  return sse([
    ['response.created', { type: 'response.created', response: { id: `resp_${n}` } }],
    ['response.output_item.done', { type: 'response.output_item.done', item }],
    ['response.completed', { type: 'response.completed', response: { id: `resp_${n}`, usage } }],
  ]);
}

/** Whether this request is a turn of the conversation (not a side request: token counts, model lists, checks). */
function isTurn(kind: ClientKind, req: IncomingMessage, body: Obj): boolean {
  if (kind === 'claude')
    return (
      Array.isArray(body.messages) && (req.url ?? '').includes('/messages') && !(req.url ?? '').includes('count_tokens')
    );
  if (kind === 'gemini') return (req.url ?? '').includes(':streamGenerateContent') && Array.isArray(body.contents);
  return (req.url ?? '').endsWith('/responses') && Array.isArray(body.input);
}

/** Answers a side request with the least the client accepts. */
function side(kind: ClientKind, req: IncomingMessage, res: ServerResponse): void {
  if (kind === 'gemini' && (req.url ?? '').includes(':generateContent')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: '{}' }] }, finishReason: 'STOP' }] }),
    );
    return;
  }
  if (kind === 'gemini' && (req.url ?? '').includes(':countTokens')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ totalTokens: 1 }));
    return;
  }
  if ((req.url ?? '').includes('/models')) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: [], models: [] }));
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: 'not served by the stand-in' } }));
}

/** Starts the stand-in for `kind`'s API; `script` gets each turn's request (and the turns before) and says the next step. */
export async function modelStandIn(
  kind: ClientKind,
  script: (req: SeenRequest, turn: number) => Step,
): Promise<ModelStandIn> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      let body: Obj = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj;
      } catch {
        /* not JSON: a side request */
      }
      if (!isTurn(kind, req, body)) return side(kind, req, res);
      const seen = { ...read(kind, body), raw: body };
      requests.push(seen);
      let step: Step;
      try {
        step = script(seen, requests.length - 1);
      } catch (e) {
        step = { text: `script failed: ${(e as Error).message}` };
      }
      const streamed = answer(kind, step, requests.length);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(streamed);
      }, step.delayMs ?? 0);
    });
  });
  return { ...(await listenLoopback(server)), requests };
}

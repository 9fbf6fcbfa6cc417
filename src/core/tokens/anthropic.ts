/** Anthropic's token-counting endpoint: the exact figure for Claude, when the user has an API key. */
import { SmartError } from '../../process/errors.js';
import type { ToolSnapshot } from '../types.js';

export const ANTHROPIC_COUNT_URL = 'https://api.anthropic.com/v1/messages/count_tokens';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-sonnet-4-5';

type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string },
) => Promise<{
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
  text(): Promise<string>;
}>;

export interface AnthropicCountOptions {
  apiKey: string | undefined;
  model?: string;
  fetch: FetchLike;
}

/** Exact Claude figures from the counting endpoint, per server that answered. */
export interface AnthropicFigures {
  model: string;
  servers: { name: string; tokens: number }[];
  total: number;
}

const SAFE_NAME = /[^a-zA-Z0-9_-]/g;

async function countRequest(body: object, opts: AnthropicCountOptions & { apiKey: string }): Promise<number> {
  const res = await opts.fetch(ANTHROPIC_COUNT_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': opts.apiKey, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify(body),
  });
  if (!res.ok)
    throw new SmartError('REMOTE_FAILED', {
      service: 'Anthropic token counting',
      reason: `HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`,
    });
  const doc = (await res.json()) as { input_tokens?: unknown };
  if (typeof doc.input_tokens !== 'number')
    throw new SmartError('REMOTE_FAILED', {
      service: 'Anthropic token counting',
      reason: 'no input_tokens in the answer',
    });
  return doc.input_tokens;
}

/** Throws MISSING_API_KEY unless a key is present; call before any work so the error comes first. */
export function requireAnthropicKey(apiKey: string | undefined): string {
  if (!apiKey) throw new SmartError('MISSING_API_KEY');
  return apiKey;
}

/**
 * Tokens Claude is billed for the tools of one server: the count of a one-word request with the
 * tools minus the same request without them (so the tool-use system preamble is included).
 */
export async function countToolsWithAnthropic(
  tools: readonly ToolSnapshot[],
  opts: AnthropicCountOptions,
): Promise<number> {
  const apiKey = requireAnthropicKey(opts.apiKey);
  if (tools.length === 0) return 0;
  const model = opts.model ?? ANTHROPIC_DEFAULT_MODEL;
  const messages = [{ role: 'user', content: 'hi' }];
  const apiTools = tools.map((t) => ({
    name: t.name.replace(SAFE_NAME, '_').slice(0, 64),
    ...(t.description ? { description: t.description } : {}),
    input_schema: t.inputSchema ?? { type: 'object' },
  }));
  const k = { ...opts, apiKey };
  const [withTools, without] = [
    await countRequest({ model, messages, tools: apiTools }, k),
    await countRequest({ model, messages }, k),
  ];
  return withTools - without;
}

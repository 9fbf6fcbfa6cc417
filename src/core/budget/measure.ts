/** Per-tool token counts and definition hashes: the figures budgets and baselines compare. */
import { createHash } from 'node:crypto';
import type { ServerSnapshot, ToolSnapshot } from '../types.js';

export interface MeasuredTool {
  name: string;
  tokens: number;
  hash: string;
}

export interface MeasuredServer {
  name: string;
  tokens: number;
  tools: MeasuredTool[];
}

export type CountTool = (tool: ToolSnapshot, serverName: string) => number;

/** JSON with object keys sorted at every level and no whitespace; undefined members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** "sha256:<hex>" of the tool definition's canonical JSON. */
export function hashTool(tool: ToolSnapshot): string {
  return `sha256:${createHash('sha256').update(canonicalJson(tool)).digest('hex')}`;
}

/** Counts and hashes every tool of the servers that answered (status "ok"), in their listed order. */
export function measureServers(servers: readonly ServerSnapshot[], countTool: CountTool): MeasuredServer[] {
  return servers
    .filter((s) => s.status === 'ok')
    .map((s) => {
      const tools = s.tools.map((t) => ({ name: t.name, tokens: countTool(t, s.name), hash: hashTool(t) }));
      return { name: s.name, tokens: tools.reduce((sum, t) => sum + t.tokens, 0), tools };
    });
}

/**
 * What each MCP client declares in its initialize request (roots, elicitation, sampling). Servers may register
 * tools only for clients that declare a capability (server-everything's get-roots-list, trigger-elicitation-request,
 * trigger-url-elicitation, trigger-sampling-request), so a list taken "as client X" is taken with X's declaration.
 * Pure data; the one place these findings live (the README's table is copied from here).
 */
import type { ClientId } from './types.js';
import { isObject } from './dict.js';

/** The client-to-server requests a declaration allows: the keys of ClientCapabilities that change what a server does. */
export interface DeclaredCapabilities {
  roots?: { listChanged?: boolean };
  elicitation?: { form?: Record<string, unknown>; url?: Record<string, unknown> };
  sampling?: Record<string, unknown>;
}

export interface ClientDeclaration {
  capabilities: DeclaredCapabilities;
  /** The client version the declaration was read from. */
  version: string;
  /** Where it was read: the published package and the code, and the probe that saw it on the wire. */
  source: string;
}

/**
 * Measured with each client's published package: a logging stdio server recorded the initialize request the client
 * sent (Claude Code `claude mcp list`, Gemini CLI `gemini -p` — its chat session, not `gemini mcp list`, which tests
 * the connection with an empty declaration — and Codex `app-server` `mcpServerStatus/list`), and the code below.
 * Clients not listed here were not measured: their lists are taken with no capabilities declared.
 */
export const CLIENT_DECLARATIONS: Partial<Record<ClientId, ClientDeclaration>> = {
  'claude-code': {
    capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
    version: '2.1.332',
    source:
      '@anthropic-ai/claude-code-linux-x64@2.1.332, bin "claude": O() returns {roots:{listChanged:!0},elicitation:{}} ' +
      'and Ign() widens it to elicitation:{form:{},url:{}} (flags tengu_mcp_url_elicitation and ' +
      'tengu_mcp_legacy_url_elicitation default on); tasks are stripped (Xxt)',
  },
  gemini: {
    capabilities: { roots: { listChanged: true } },
    version: '0.61.0',
    source:
      '@google/gemini-cli@0.61.0, bundle/chunk-5FZXKDXH.js connectToMcpServer(): ' +
      'mcpClient.registerCapabilities({roots:{listChanged:true}}) and a ListRootsRequestSchema handler',
  },
  codex: {
    capabilities: { elicitation: { form: {}, url: {} } },
    version: '0.171.0',
    source:
      '@openai/codex@0.171.0-linux-x64 (Rust, rmcp client "codex-mcp-client"): initialize seen on the wire ' +
      'with capabilities {"elicitation":{"form":{},"url":{}}}',
  },
};

/** What `--client <id>` declares to the servers it lists; none for mcp-smart itself and unmeasured clients. */
export function declaredCapabilities(client: ClientId | undefined): DeclaredCapabilities {
  return (client && CLIENT_DECLARATIONS[client]?.capabilities) ?? {};
}

/**
 * What of each relayed capability is passed on: the fields the MCP schema defines (2025-11-25), each flag only when
 * true. Anything else a client puts there (unknown keys, other values) is dropped, so the declarations serve can
 * relay form a small finite set and their union (declared.ts) changes a bounded number of times: a client that
 * varies its declaration on every 2026-07-28 request cannot restart the servers behind or write cache files
 * without end.
 */
const RELAYED_SHAPE = {
  roots: { listChanged: true },
  elicitation: { form: { applyDefaults: true }, url: {} },
  sampling: { context: {}, tools: {} },
} as const;

/** `value` cut to `shape`: objects keep the shape's keys (recursively), `true` flags only when true. */
function cut(value: Record<string, unknown>, shape: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(shape)) {
    const v = value[key];
    if (kind === true) {
      if (v === true) out[key] = true;
    } else if (isObject(v)) out[key] = cut(v, kind as Record<string, unknown>);
  }
  return out;
}

/**
 * The part of a client's declared capabilities that is passed on to servers: roots, elicitation and sampling, cut to
 * the fields MCP defines (RELAYED_SHAPE; tasks and extensions are not relayed). Anything that is not an object is
 * dropped.
 */
export function relayedCapabilities(caps: Record<string, unknown> | undefined): DeclaredCapabilities {
  const out: Record<string, unknown> = {};
  for (const [key, shape] of Object.entries(RELAYED_SHAPE)) {
    const v = caps?.[key];
    if (isObject(v)) out[key] = cut(v, shape);
  }
  return out;
}

/** A stable text for a declaration (sorted keys at every level): equal declarations give equal keys. */
export function capabilitiesKey(caps: DeclaredCapabilities | undefined): string {
  const sort = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
    );
  };
  return JSON.stringify(sort(caps ?? {}));
}

/**
 * What each MCP client declares in its initialize request (roots, elicitation, sampling). Servers may register
 * tools only for clients that declare a capability (server-everything's get-roots-list, trigger-elicitation-request,
 * trigger-url-elicitation, trigger-sampling-request), so a list taken "as client X" is taken with X's declaration.
 * Pure data; the one place these findings live (the README's table is copied from here).
 */
import type { ClientId } from '../types.js';

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
 * The part of a client's declared capabilities that is passed on to servers: roots, elicitation and sampling, as the
 * client declared them (tasks and extensions are not relayed). Anything that is not an object is dropped.
 */
export function relayedCapabilities(caps: Record<string, unknown> | undefined): DeclaredCapabilities {
  const out: Record<string, unknown> = {};
  for (const key of ['roots', 'elicitation', 'sampling'] as const) {
    const v = caps?.[key];
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) out[key] = v;
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

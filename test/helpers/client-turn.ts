// One non-interactive run of a real client CLI (offline, its own temporary HOME) against MCP servers given in its
// own config, with its model played by test/helpers/model-apis.ts: the script calls tools, the stand-in records
// what the client offered and carried back. Approvals are not asked for, as on CI: each client's own non-interactive
// switch for that (Claude Code --allowedTools for the configured servers, Gemini CLI --approval-mode yolo, Codex
// approval_policy "never").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { modelStandIn, type SeenRequest, type Step } from './model-apis.js';
import { RealClient, type ClientKind, type ClientRun } from './real-clients.js';

export interface McpEntry {
  command: string;
  args: string[];
}

export interface TurnRun {
  client: RealClient;
  run: ClientRun;
  requests: SeenRequest[];
}

/** How each client names an MCP tool for its model (Codex: `<namespace>/<name>`, its namespace mcp__<server>). */
export function modelToolName(kind: ClientKind, server: string, tool: string): string {
  if (kind === 'codex') return `mcp__${server}/${tool}`;
  return kind === 'gemini' ? `mcp_${server}_${tool}` : `mcp__${server}__${tool}`;
}

const toml = (v: unknown): string => JSON.stringify(v);

/**
 * Codex's settings for a turn against the model stand-in at `baseUrl` (its Responses API as a model provider, no
 * approvals asked, read-only sandbox): the top of a config.toml, before any `[mcp_servers.*]` table. No MCP setting.
 */
export function codexModelSettings(baseUrl: string): string[] {
  return [
    'model = "gpt-5.1-codex"',
    'model_provider = "standin"',
    'approval_policy = "never"',
    'sandbox_mode = "read-only"',
    '[model_providers.standin]',
    'name = "standin"',
    `base_url = ${toml(`${baseUrl}/v1`)}`,
    'wire_api = "responses"',
    'env_key = "STANDIN_API_KEY"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
  ];
}

/** The argv and environment of one `codex exec` turn (its model the stand-in of codexModelSettings). */
export const CODEX_EXEC = {
  args: (prompt: string): string[] => ['exec', '--skip-git-repo-check', prompt],
  env: { STANDIN_API_KEY: 'placeholder-offline' },
};

/** Writes the servers into the client's own config and returns the argv and environment of one run. */
function configure(
  client: RealClient,
  servers: Record<string, McpEntry>,
  baseUrl: string,
  prompt: string,
): { args: string[]; env: Record<string, string> } {
  if (client.kind === 'claude') {
    const file = join(client.dir, 'mcp.json');
    writeFileSync(file, JSON.stringify({ mcpServers: servers }));
    const allowed = Object.keys(servers).map((s) => `mcp__${s}`);
    return {
      args: [
        '-p',
        prompt,
        '--mcp-config',
        file,
        '--strict-mcp-config',
        '--allowedTools',
        ...allowed,
        '--output-format',
        'stream-json',
        '--verbose',
      ],
      env: {
        ANTHROPIC_API_KEY: 'sk-ant-placeholder-offline',
        ANTHROPIC_BASE_URL: baseUrl,
        MCP_CONNECTION_NONBLOCKING: 'false',
        MCP_CONNECT_TIMEOUT_MS: '60000',
        ENABLE_TOOL_SEARCH: 'false',
      },
    };
  }
  if (client.kind === 'gemini') {
    client.trustProject();
    writeFileSync(
      join(client.home, '.gemini', 'settings.json'),
      JSON.stringify({
        privacy: { usageStatisticsEnabled: false },
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: servers,
      }),
    );
    return {
      args: ['-p', prompt, '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo'],
      env: { GEMINI_API_KEY: 'placeholder-offline', GOOGLE_GEMINI_BASE_URL: baseUrl },
    };
  }
  const lines = codexModelSettings(baseUrl);
  for (const [name, s] of Object.entries(servers))
    lines.push(
      `[mcp_servers.${toml(name)}]`,
      `command = ${toml(s.command)}`,
      `args = ${toml(s.args)}`,
      // Codex (since 0.147) sends its first model request about 1 s after launch without the tools of a server still
      // starting. Each entry is waited for as the one adopt writes for serve is (src/core/adopt/codex-startup.ts),
      // with more time on this shared machine, so these tests are about what the model is sent, not about load.
      'required = true',
      'startup_timeout_sec = 60',
      'default_tools_approval_mode = "approve"',
    );
  writeFileSync(join(client.home, '.codex', 'config.toml'), `${lines.join('\n')}\n`);
  return { args: CODEX_EXEC.args(prompt), env: CODEX_EXEC.env };
}

/** Runs `kind` once with `servers`, its model following `script`, until it ends its turn (or `timeoutMs`). */
export async function clientTurn(
  kind: ClientKind,
  servers: Record<string, McpEntry>,
  script: (req: SeenRequest, turn: number) => Step,
  timeoutMs = 180_000,
): Promise<TurnRun> {
  const client = new RealClient(kind);
  const model = await modelStandIn(kind, script);
  try {
    const { args, env } = configure(client, servers, model.baseUrl, 'Use the tools as asked.');
    const run = await client.run(args, timeoutMs, env);
    return { client, run, requests: model.requests };
  } finally {
    await model.close();
  }
}

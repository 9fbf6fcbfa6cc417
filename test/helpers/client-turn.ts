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
  const lines = [
    'model = "gpt-5.1-codex"',
    // Codex (since 0.147) starts a turn after about 1 s without the tools of a server still starting; a cold serve
    // takes about that long on this shared machine. Waiting for each server (up to startup_timeout_sec) keeps these
    // tests about what the model is sent, not about how loaded the machine is.
    'mcp_optional_startup_grace_ms = 0',
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
  for (const [name, s] of Object.entries(servers))
    lines.push(
      `[mcp_servers.${toml(name)}]`,
      `command = ${toml(s.command)}`,
      `args = ${toml(s.args)}`,
      'startup_timeout_sec = 60',
      'default_tools_approval_mode = "approve"',
    );
  writeFileSync(join(client.home, '.codex', 'config.toml'), `${lines.join('\n')}\n`);
  return {
    args: ['exec', '--skip-git-repo-check', prompt],
    env: { STANDIN_API_KEY: 'placeholder-offline' },
  };
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

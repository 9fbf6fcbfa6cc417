/** `mcp-smart serve`: its declaration (spec.ts); the command is serve.ts. */
import { storeOption, type CommandSpec } from './spec.js';

export const serveSpec: CommandSpec = {
  name: 'serve',
  description:
    'an MCP server in front of your servers: serves what fits the budget, the rest behind find_tool/call_tool; forwards calls and learns from them',
  options: [
    {
      flags: '--mode <mode>',
      description: 'what the model sees (default auto, or serve.mode)',
      choices: ['auto', 'tools', 'meta'],
    },
    {
      flags: '--level <level>',
      description: 'condensing of first-class tools (default lossless)',
      choices: ['full', 'lossless', 'compact', 'minimal', 'names'],
    },
    {
      flags: '--transport <transport>',
      description: 'stdio, or Streamable HTTP',
      choices: ['stdio', 'http'],
      default: 'stdio',
    },
    { flags: '--port <n>', description: 'HTTP port (0: a free one, printed on stderr)', default: '0' },
    {
      flags: '--host <address>',
      description: 'HTTP bind address; anything but loopback needs --token-env or --issuer',
      default: '127.0.0.1',
    },
    { flags: '--token-env <var>', description: 'HTTP: require "Authorization: Bearer <value of this variable>"' },
    {
      flags: '--issuer <url>',
      description: 'HTTP: accept OAuth access tokens (JWT) of this issuer (default serve.auth.issuer)',
    },
    {
      flags: '--audience <url>',
      description: 'HTTP: the audience tokens must name (default serve.auth.audience, else this URL)',
    },
    {
      flags: '--scope <scopes>',
      description: 'HTTP: scopes every token must carry, comma-separated (default serve.auth.scopes)',
    },
    {
      flags: '--audit-log <file>',
      description: 'append who called which tool, outcome and duration as JSON lines (no values)',
    },
    {
      flags: '--state-key-file <file>',
      description:
        'HTTP: seal input_required state with the keys in this file (one per line, the first seals), shared by every replica',
    },
    {
      flags: '--session-idle <ms>',
      description: 'HTTP: close a 2025 session after this long with no request (default 1800000, 30 min)',
    },
    {
      flags: '--max-sessions <n>',
      description: 'HTTP: 2025 sessions kept open at most; past it the one unused longest closes (default 1000)',
    },
    { flags: '--max <tokens>', description: 'auto mode: context window size (default budget.max, else 200000)' },
    { flags: '--share <fraction>', description: 'auto mode: share of --max for tools (default 0.10)' },
    { flags: '--limit <tokens>', description: 'auto mode: tokens the tool context may use (instead of --share)' },
    {
      flags: '--activate',
      description: 'a tool called through call_tool becomes first-class while it fits the budget',
    },
    {
      flags: '--record <file>',
      description: 'append "intent → tool" cases found by find_tool and then called, as labelled-intents JSONL',
    },
    { flags: '--no-learn', description: 'do not update the usage store from forwarded calls' },
    {
      flags: '--user <name>',
      description: 'attribute learned calls to this user (stored hashed unless the config says plain)',
    },
    {
      flags: '--no-load-hints',
      description:
        'do not set _meta anthropic/alwaysLoad and anthropic/searchHint on pass-through tools from the usage store',
    },
    storeOption(
      'usage store to rank with and learn into: a file or postgres://… (default: store in config, else the user data folder)',
    ),
    {
      flags: '--key <name>',
      description: 'the name your client gives this server (tool names are fitted to its limits)',
    },
    { flags: '--spawn-timeout <ms>', description: 'limit for a server to start and initialize (default --timeout)' },
    { flags: '--call-timeout <ms>', description: 'limit for one forwarded call (default 120000)' },
    {
      flags: '--otlp <url>',
      description:
        'export OpenTelemetry traces and metrics to this OTLP/HTTP collector (default: OTEL_EXPORTER_OTLP_* if set, else off)',
    },
    {
      flags: '--first-list-wait <ms>',
      description:
        'how long a tools/list waits for servers still starting before answering with what is ready (default 10000)',
    },
    {
      flags: '--print-config <client>',
      description: 'print the snippet that makes a client start mcp-smart serve, and the mode that suits it',
    },
  ],
  help: '\nExamples:\n  mcp-smart serve --print-config claude-desktop\n  mcp-smart --demo serve --mode meta\n  mcp-smart serve --transport http --port 8808 --max 128000',
  load: async () => (await import('./serve.js')).runServeCommand,
};

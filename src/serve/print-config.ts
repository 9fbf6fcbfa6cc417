/** `serve --print-config <client>`: the exact snippet that makes a client start mcp-smart, and the mode that suits it. */
import { SmartError } from '../errors.js';
import type { ServeMode } from './catalog.js';

export const CLIENTS = [
  'claude-code',
  'claude-desktop',
  'cursor',
  'vscode',
  'windsurf',
  'gemini-cli',
  'codex',
  'cline',
  'roo',
] as const;
export type ClientName = (typeof CLIENTS)[number];

interface ClientInfo {
  title: string;
  file: string;
  /** `mcpServers` JSON, VS Code's `servers` JSON, or Codex TOML. */
  shape: 'mcpServers' | 'vscode' | 'toml';
  mode: ServeMode;
  why: string;
}

const OWN_SEARCH =
  'it runs its own tool search over whatever tools a server exposes, so condensed tools beat a second search layer';
const NO_SEARCH =
  'it sends every tool to the model on each request, so the budget decides what is first-class and the rest sits behind find_tool';

const INFO: Record<ClientName, ClientInfo> = {
  'claude-code': {
    title: 'Claude Code',
    file: '.mcp.json (project) or ~/.claude.json',
    shape: 'mcpServers',
    mode: 'tools',
    why: OWN_SEARCH,
  },
  'claude-desktop': {
    title: 'Claude Desktop',
    file: 'claude_desktop_config.json (Settings → Developer → Edit Config)',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  cursor: {
    title: 'Cursor',
    file: '.cursor/mcp.json (project) or ~/.cursor/mcp.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: `${NO_SEARCH}; Cursor also uses only about 40 tools`,
  },
  vscode: { title: 'VS Code', file: '.vscode/mcp.json', shape: 'vscode', mode: 'tools', why: OWN_SEARCH },
  windsurf: {
    title: 'Windsurf',
    file: '~/.codeium/windsurf/mcp_config.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  'gemini-cli': {
    title: 'Gemini CLI',
    file: '.gemini/settings.json or ~/.gemini/settings.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  codex: { title: 'Codex', file: '~/.codex/config.toml', shape: 'toml', mode: 'tools', why: OWN_SEARCH },
  cline: {
    title: 'Cline',
    file: 'cline_mcp_settings.json (MCP Servers → Configure)',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
  roo: {
    title: 'Roo Code',
    file: '.roo/mcp.json or mcp_settings.json',
    shape: 'mcpServers',
    mode: 'auto',
    why: NO_SEARCH,
  },
};

/** Accepts the documented names and a few spellings (cline/roo, gemini, "claude code"). */
export function parseClientName(value: string): ClientName {
  const v = value.toLowerCase().replace(/[\s_]+/g, '-');
  const alias: Record<string, ClientName> = {
    gemini: 'gemini-cli',
    'vs-code': 'vscode',
    code: 'vscode',
    'cline/roo': 'cline',
    'roo-code': 'roo',
  };
  const name = (alias[v] ?? v) as ClientName;
  if ((CLIENTS as readonly string[]).includes(name)) return name;
  throw new SmartError('BAD_FLAG', { flag: '--print-config', value, hint: `Expected one of: ${CLIENTS.join(', ')}.` });
}

/** The snippet and the reasoning, as printed text. `configFile` is the mcp-smart config serve should read. */
export function printConfig(client: ClientName, configFile: string | undefined, modeOverride?: ServeMode): string {
  const info = INFO[client];
  const mode = modeOverride ?? info.mode;
  const args = ['-y', 'mcp-smart', ...(configFile ? ['--config', configFile] : []), 'serve', '--mode', mode];
  let snippet: string;
  if (info.shape === 'toml') {
    snippet = `[mcp_servers.mcp-smart]\ncommand = "npx"\nargs = [${args.map((a) => JSON.stringify(a)).join(', ')}]`;
  } else if (info.shape === 'vscode') {
    snippet = JSON.stringify({ servers: { 'mcp-smart': { type: 'stdio', command: 'npx', args } } }, null, 2);
  } else {
    snippet = JSON.stringify({ mcpServers: { 'mcp-smart': { command: 'npx', args } } }, null, 2);
  }
  const lines = [
    `# ${info.title}: add this to ${info.file}`,
    `# mode ${mode}${modeOverride ? ' (as asked)' : ''}: ${modeOverride ? 'chosen with --mode' : info.why}.`,
    '# Keep your servers in the file serve reads (mcp-smart.config.json "servers"), not in this client file,',
    '# or the client starts them too. To go back, restore your own entries; mcp-smart never edits client files.',
  ];
  if (client === 'claude-code') lines.push(`# Or from a shell: claude mcp add mcp-smart -- npx ${args.join(' ')}`);
  return `${lines.join('\n')}\n${snippet}\n`;
}

/** Where each MCP client keeps its config, per platform. Paths only: nothing is read here. */
import { join } from 'node:path';

/** How to read a file's server entries where clients differ (Gemini's `url` is SSE, Codex is TOML). */
export type ConfigFlavor = 'generic' | 'gemini' | 'codex' | 'smart';

export interface ConfigLocation {
  file: string;
  scope: 'project' | 'user';
  /** The client that owns the file, for messages. */
  client: string;
  flavor: ConfigFlavor;
}

export interface LocateRequest {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
}

export const SMART_CONFIG_NAME = 'mcp-smart.config.json';

/** Project-level files in precedence order (CONTRACT "Config sources"). */
export function projectLocations(cwd: string): ConfigLocation[] {
  const at = (rel: string, client: string, flavor: ConfigFlavor = 'generic'): ConfigLocation => ({
    file: join(cwd, rel),
    scope: 'project',
    client,
    flavor,
  });
  return [
    at('.mcp.json', 'Claude Code'),
    at(join('.cursor', 'mcp.json'), 'Cursor'),
    at(join('.vscode', 'mcp.json'), 'VS Code'),
    at(join('.roo', 'mcp.json'), 'Roo Code'),
    at('mcp-settings.json', 'MCP hub'),
    at(SMART_CONFIG_NAME, 'mcp-smart', 'smart'),
  ];
}

/** The per-user application data folder: ~/Library/Application Support, %APPDATA%, $XDG_CONFIG_HOME. */
export function appDataDir(req: Omit<LocateRequest, 'cwd'>): string {
  if (req.platform === 'darwin') return join(req.home, 'Library', 'Application Support');
  if (req.platform === 'win32') return nonEmpty(req.env.APPDATA) ?? join(req.home, 'AppData', 'Roaming');
  return nonEmpty(req.env.XDG_CONFIG_HOME) ?? join(req.home, '.config');
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

/** Claude Code's user file; its `projects[<cwd>]` entry counts as project level. */
export function claudeCodeUserFile(home: string): string {
  return join(home, '.claude.json');
}

/** User-level files in precedence order. */
export function userLocations(req: Omit<LocateRequest, 'cwd'>): ConfigLocation[] {
  const appData = appDataDir(req);
  const codeUser = join(appData, 'Code', 'User');
  const globalStorage = join(codeUser, 'globalStorage');
  const codexHome = nonEmpty(req.env.CODEX_HOME) ?? join(req.home, '.codex');
  const at = (file: string, client: string, flavor: ConfigFlavor = 'generic'): ConfigLocation => ({
    file,
    scope: 'user',
    client,
    flavor,
  });
  return [
    at(claudeCodeUserFile(req.home), 'Claude Code'),
    at(join(appData, 'Claude', 'claude_desktop_config.json'), 'Claude Desktop'),
    at(join(req.home, '.cursor', 'mcp.json'), 'Cursor'),
    at(join(req.home, '.codeium', 'windsurf', 'mcp_config.json'), 'Windsurf'),
    at(join(req.home, '.gemini', 'settings.json'), 'Gemini CLI', 'gemini'),
    at(join(codeUser, 'settings.json'), 'VS Code'),
    at(join(codeUser, 'mcp.json'), 'VS Code'),
    at(join(globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), 'Cline'),
    at(join(globalStorage, 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), 'Roo Code'),
    at(join(codexHome, 'config.toml'), 'Codex', 'codex'),
  ];
}

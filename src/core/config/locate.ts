/** Where each MCP client keeps its config, per platform, and in which layer. Paths only: nothing is read here. */
import { join } from 'node:path';
import type { ClientId, ConfigLayer } from '../types.js';

export interface ConfigLocation {
  file: string;
  scope: 'project' | 'user';
  /** The client that reads the file; undefined for a file no one client owns (mcp-settings.json). */
  client?: ClientId;
  layer: ConfigLayer;
  /** Our own mcp-smart.config.json. */
  smart?: boolean;
}

export interface LocateRequest {
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** Root of machine-wide files (Gemini's system settings); default "/" (or %ProgramData% on Windows). */
  systemRoot?: string;
}

export const SMART_CONFIG_NAME = 'mcp-smart.config.json';

/** Project-level files in precedence order (CONTRACT "Config sources"). */
export function projectLocations(cwd: string): ConfigLocation[] {
  const at = (rel: string, client: ClientId | undefined): ConfigLocation => ({
    file: join(cwd, rel),
    scope: 'project',
    layer: 'project',
    ...(client ? { client } : {}),
  });
  return [
    at('.mcp.json', 'claude-code'),
    at(join('.cursor', 'mcp.json'), 'cursor'),
    at(join('.vscode', 'mcp.json'), 'vscode'),
    at(join('.roo', 'mcp.json'), 'roo'),
    // google-gemini/gemini-cli docs/get-started/configuration.md "Project settings file: .gemini/settings.json".
    at(join('.gemini', 'settings.json'), 'gemini'),
    // https://developers.openai.com/codex/config-basic: "project-scoped overrides in .codex/config.toml" (trusted projects).
    at(join('.codex', 'config.toml'), 'codex'),
    at('mcp-settings.json', undefined),
    { file: join(cwd, SMART_CONFIG_NAME), scope: 'project', layer: 'project', smart: true },
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

/** Claude Code's user file; its `projects[<cwd>]` entry is the local scope. */
export function claudeCodeUserFile(home: string): string {
  return join(home, '.claude.json');
}

/**
 * Gemini CLI's machine-wide files (gemini-cli docs/get-started/configuration.md "Settings files" and
 * packages/cli/src/config/settings.ts getSystemSettingsPath / getSystemDefaultsPath): system settings override
 * user and project; system defaults sit below them. Both paths can be moved by environment variables.
 */
export function geminiSystemFiles(req: Omit<LocateRequest, 'cwd'>): { settings: string; defaults: string } {
  let dir: string;
  if (req.platform === 'win32') dir = join(req.systemRoot ?? 'C:\\ProgramData', 'gemini-cli');
  else if (req.platform === 'darwin') dir = join(req.systemRoot ?? '/', 'Library', 'Application Support', 'GeminiCli');
  else dir = join(req.systemRoot ?? '/', 'etc', 'gemini-cli');
  return {
    settings: nonEmpty(req.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) ?? join(dir, 'settings.json'),
    defaults: nonEmpty(req.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH) ?? join(dir, 'system-defaults.json'),
  };
}

/** User-level (and machine-wide) files in precedence order. */
export function userLocations(req: Omit<LocateRequest, 'cwd'>): ConfigLocation[] {
  const appData = appDataDir(req);
  const codeUser = join(appData, 'Code', 'User');
  const globalStorage = join(codeUser, 'globalStorage');
  const codexHome = nonEmpty(req.env.CODEX_HOME) ?? join(req.home, '.codex');
  const gemini = geminiSystemFiles(req);
  const at = (file: string, client: ClientId, layer: ConfigLayer = 'user'): ConfigLocation => ({
    file,
    scope: 'user',
    client,
    layer,
  });
  return [
    at(claudeCodeUserFile(req.home), 'claude-code'),
    at(join(appData, 'Claude', 'claude_desktop_config.json'), 'claude-desktop'),
    at(join(req.home, '.cursor', 'mcp.json'), 'cursor'),
    at(join(req.home, '.codeium', 'windsurf', 'mcp_config.json'), 'windsurf'),
    at(gemini.settings, 'gemini', 'system'),
    at(join(req.home, '.gemini', 'settings.json'), 'gemini'),
    at(gemini.defaults, 'gemini', 'system-defaults'),
    at(join(codeUser, 'settings.json'), 'vscode'),
    at(join(codeUser, 'mcp.json'), 'vscode'),
    at(join(globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), 'cline'),
    at(join(globalStorage, 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), 'roo'),
    at(join(codexHome, 'config.toml'), 'codex'),
  ];
}

/**
 * Claude Code settings files that hold project-server approval (https://code.claude.com/docs/en/settings:
 * enableAllProjectMcpServers, enabledMcpjsonServers, disabledMcpjsonServers), highest precedence first.
 * ~/.claude.json's projects[<cwd>] entry, where the approval dialog records its answer, is read with the servers.
 */
export function claudeApprovalFiles(cwd: string, home: string): string[] {
  return [
    join(cwd, '.claude', 'settings.local.json'),
    join(cwd, '.claude', 'settings.json'),
    join(home, '.claude', 'settings.json'),
  ];
}

/** A client's precedence between layers (lower wins): Claude Code local > project > user; Gemini system > project > user > system defaults. */
export const LAYER_RANK: Record<ConfigLayer, number> = {
  system: 0,
  local: 0,
  project: 1,
  user: 2,
  'system-defaults': 3,
};

/** Gemini CLI's trusted folders file (Storage.getTrustedFoldersPath: GEMINI_CLI_TRUSTED_FOLDERS_PATH or ~/.gemini). */
export function geminiTrustedFoldersFile(req: Omit<LocateRequest, 'cwd'>): string {
  return nonEmpty(req.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH) ?? join(req.home, '.gemini', 'trustedFolders.json');
}

/** Codex's user config.toml, where [projects."<path>"] trust_level is recorded. */
export function codexUserFile(req: Omit<LocateRequest, 'cwd'>): string {
  return join(nonEmpty(req.env.CODEX_HOME) ?? join(req.home, '.codex'), 'config.toml');
}

/** A default location that is a symbolic link to nothing (a dotfile link that broke): said, not taken for "missing". */
export function brokenLinkWarning(file: string, target: string): string {
  return `${file} is a symbolic link to ${target}, which does not exist, so no servers are read from it. Restore that file, or point the link at one that exists.`;
}

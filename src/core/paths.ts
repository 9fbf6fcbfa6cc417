/** Per-user cache and data folders (XDG on Linux, ~/Library on macOS, %LOCALAPPDATA% on Windows). */
import { join } from 'node:path';

export interface PathEnv {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/** Where the tool-list and token-count caches live. MCP_SMART_CACHE_DIR overrides. */
export function userCacheDir({ env, platform, home }: PathEnv): string {
  if (env.MCP_SMART_CACHE_DIR) return env.MCP_SMART_CACHE_DIR;
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'mcp-smart', 'Cache');
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'mcp-smart');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'mcp-smart');
}

/** Where the usage store lives. MCP_SMART_DATA_DIR overrides. */
export function userDataDir({ env, platform, home }: PathEnv): string {
  if (env.MCP_SMART_DATA_DIR) return env.MCP_SMART_DATA_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'mcp-smart', 'Data');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'mcp-smart');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'mcp-smart');
}

/** The usage store `replay --learn` writes and `discover`/`budget` read. A plain path: no locking code loaded. */
export function usageStorePath(pathEnv: PathEnv): string {
  return join(userDataDir(pathEnv), 'usage.json');
}

/** Per-user settings and credentials (the OAuth token store). MCP_SMART_CONFIG_DIR overrides. */
export function userConfigDir({ env, platform, home }: PathEnv): string {
  if (env.MCP_SMART_CONFIG_DIR) return env.MCP_SMART_CONFIG_DIR;
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'mcp-smart', 'Config');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'mcp-smart');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'mcp-smart');
}

/** The OAuth token store `login` writes and every command reads (mode 0600). */
export function oauthTokenStorePath(pathEnv: PathEnv): string {
  return join(userConfigDir(pathEnv), 'oauth-tokens.json');
}

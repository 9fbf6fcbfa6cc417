// What every bench that starts mcp-smart needs: a scratch environment inside its own temporary folder (never the
// user's home, cache or data), and a config naming the tiny fixture catalog server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './datasets.mjs';

/** PATH, no colour, and HOME, cache and data folders inside `dir`; `extra` is added on top. */
export function scratchEnv(dir, extra = {}) {
  return {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    HOME: dir,
    MCP_SMART_CACHE_DIR: join(dir, 'cache'),
    MCP_SMART_DATA_DIR: join(dir, 'data'),
    ...extra,
  };
}

/** Writes `{mcpServers: {tiny: …}}` (the tiny catalog fixture of `repo`) to `path`; returns `path`. */
export function writeTinyConfig(path, repo = REPO) {
  const args = [
    join(repo, 'fixtures', 'servers', 'catalog-server.mjs'),
    join(repo, 'fixtures', 'servers', 'catalogs', 'tiny.json'),
  ];
  writeFileSync(path, JSON.stringify({ mcpServers: { tiny: { command: process.execPath, args } } }));
  return path;
}

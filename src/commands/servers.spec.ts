/** `mcp-smart servers`: its declaration (spec.ts). */
import type { CommandSpec } from './spec.js';

export const serversSpec: CommandSpec = {
  name: 'servers',
  description: 'list configured servers: name, transport, source file, enabled',
  help: '\nExamples:\n  mcp-smart servers\n  mcp-smart servers --config ~/.cursor/mcp.json --json',
  load: async () => (await import('./servers.js')).runServersCommand,
};

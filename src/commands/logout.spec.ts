/** `mcp-smart logout`: its declaration (spec.ts). */
import type { CommandSpec } from './spec.js';

export const logoutSpec: CommandSpec = {
  name: 'logout',
  description: 'forget the stored OAuth tokens of a server (default: of every server)',
  args: [{ name: '[server]', description: 'the server whose tokens to forget' }],
  help: '\nExamples:\n  mcp-smart logout linear\n  mcp-smart logout',
  load: async () => (await import('./logout.js')).runLogoutCommand,
};

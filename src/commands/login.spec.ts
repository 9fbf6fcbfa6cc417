/** `mcp-smart login`: its declaration (spec.ts). */
import type { CommandSpec } from './spec.js';

export const loginSpec: CommandSpec = {
  name: 'login',
  description: 'authorize mcp-smart with remote servers behind OAuth (browser + loopback redirect); stores the tokens',
  args: [{ name: '[server]', description: 'the server to log in to (default: every remote server that needs it)' }],
  help: '\nExamples:\n  mcp-smart login linear\n  mcp-smart --auth-open none login   # print the URL instead of opening a browser',
  load: async () => (await import('./login.js')).runLoginCommand,
};

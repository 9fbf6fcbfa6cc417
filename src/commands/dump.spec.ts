/** `mcp-smart dump`: its declaration (spec.ts). */
import { outputOption, type CommandSpec } from './spec.js';

export const dumpSpec: CommandSpec = {
  name: 'dump',
  description: 'connect to every server and write a snapshot of its tools, prompts and resources',
  options: [outputOption('write the snapshot here (default: stdout)')],
  help: '\nExamples:\n  mcp-smart dump -o mcp-snapshot.json\n  mcp-smart dump --stdio "node dist/index.js" --name mine',
  load: async () => (await import('./dump.js')).runDumpCommand,
};

/** `mcp-smart audit`: its declaration (spec.ts). */
import { renderOption, type CommandSpec } from './spec.js';

export const auditSpec: CommandSpec = {
  name: 'audit',
  description: 'token cost per server and tool, condensing potential, and findings',
  options: [
    {
      flags: '--fail-on <severity>',
      description: 'exit 1 when a finding is at or above this severity',
      choices: ['error', 'warning', 'info'],
    },
    { flags: '--top <n>', description: 'how many of the most expensive tools to list', default: '10' },
    { flags: '--window <tokens>', description: 'context window the shares are computed against', default: '200000' },
    renderOption('how the tool list is rendered before counting'),
    {
      flags: '--anthropic-count',
      description: "also ask Anthropic's token-counting endpoint (needs ANTHROPIC_API_KEY)",
    },
    {
      flags: '--html <file>',
      description: 'also write a self-contained HTML report (treemap, condense levels, every finding)',
    },
    {
      flags: '--baseline <file>',
      description:
        "servers of this baseline that were not reached are findings (default: the config's baseline or mcp-smart.lock.json, when present)",
    },
  ],
  help: '\nExamples:\n  mcp-smart audit\n  mcp-smart audit --snapshot mcp-snapshot.json --fail-on error --format markdown\n  mcp-smart --demo audit --html audit.html',
  load: async () => (await import('./audit.js')).runAuditCommand,
};

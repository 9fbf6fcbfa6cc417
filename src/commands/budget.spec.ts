/** `mcp-smart budget`: its declaration (spec.ts). */
import { outputOption, storeOption, type CommandSpec } from './spec.js';

export const budgetSpec: CommandSpec = {
  name: 'budget',
  description: 'does the tool context fit the budget; if not, a plan that fits',
  options: [
    { flags: '--max <tokens>', description: 'context window size in tokens' },
    { flags: '--share <fraction>', description: 'share of --max the tool context may use (default 0.10)' },
    { flags: '--limit <tokens>', description: 'tokens the tool context may use (instead of --share)' },
    {
      flags: '--intent <text>',
      description: 'keep full schemas for the tools most relevant to this intent, names for the rest',
    },
    storeOption('usage store used to find least-used servers and tools (a file or postgres://…)'),
    { flags: '--apply', description: 'write the definitions that result from the plan (needs -o)' },
    outputOption('where --apply writes the resulting definitions'),
  ],
  help: '\nExamples:\n  mcp-smart budget --max 128000\n  mcp-smart budget --max 200000 --limit 8000 --apply -o tools.budget.json',
  load: async () => (await import('./budget.js')).runBudgetCommand,
};

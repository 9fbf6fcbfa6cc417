/** `mcp-smart init`: its declaration (spec.ts). */
import type { CommandSpec } from './spec.js';

export const initSpec: CommandSpec = {
  name: 'init',
  description: 'set up mcp-smart.config.json, a first baseline and optionally a CI workflow',
  options: [
    { flags: '-y, --yes', description: 'accept the defaults without asking' },
    { flags: '--force', description: 'overwrite existing files' },
    { flags: '--servers <names>', description: 'comma-separated servers to include (default: all found)' },
    { flags: '--max <tokens>', description: 'context window for the budget', default: '200000' },
    { flags: '--share <fraction>', description: 'share of the window the tool context may use', default: '0.1' },
    { flags: '--max-growth <limit>', description: 'allowed growth before check fails', default: '5%' },
    { flags: '--github', description: 'also write .github/workflows/mcp-smart.yml' },
    {
      flags: '--ci-snapshot',
      description: 'the workflow checks a committed snapshot (written now) instead of starting the servers in CI',
      needs: {
        flag: '--github',
        why: 'It chooses what the workflow --github writes checks; without it no workflow is written.',
      },
    },
    { flags: '--no-baseline', description: 'do not write a first baseline' },
  ],
  help: '\nExamples:\n  mcp-smart init\n  mcp-smart init --yes --github --ci-snapshot',
  load: async () => (await import('./init.js')).runInitCommand,
};

/** `mcp-smart check`: its declaration (spec.ts). */
import { storeOption, type CommandSpec } from './spec.js';

/** The retrieval gate's flags count only with its intents. */
const QUERIES = { flag: '--queries', why: 'The retrieval gate runs only with --queries <intents.jsonl>.' };

export const checkSpec: CommandSpec = {
  name: 'check',
  description: 'compare against a committed baseline (CI gate)',
  options: [
    { flags: '--baseline <file>', description: 'baseline file', default: 'mcp-smart.lock.json' },
    { flags: '--update', description: 'write the baseline from the current servers' },
    { flags: '--max-growth <limit>', description: 'allowed growth: a percentage ("5%") or tokens ("500")' },
    { flags: '--max <tokens>', description: 'absolute limit on total tool tokens' },
    { flags: '--queries <file>', description: 'labelled intents (.jsonl) for the retrieval gate' },
    {
      flags: '--min-recall <r>',
      description: 'fail when discovery Recall@k on --queries falls below this',
      needs: QUERIES,
    },
    { flags: '-k <n>', description: 'k for the retrieval gate', default: '5', needs: QUERIES },
    {
      ...storeOption('the retrieval gate ranks with this usage store (a file or postgres://…)'),
      needs: QUERIES,
    },
  ],
  help: '\nExamples:\n  mcp-smart check --snapshot mcp-snapshot.json\n  mcp-smart check --update',
  load: async () => (await import('./check.js')).runCheckCommand,
};

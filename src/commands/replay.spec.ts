/** `mcp-smart replay`: its declaration (spec.ts). */
import { storeOption, type CommandSpec } from './spec.js';

export const replaySpec: CommandSpec = {
  name: 'replay',
  description: 'replay recorded sessions: ranking quality, usage learning, weight tuning',
  args: [
    {
      name: '[paths...]',
      description: 'Claude Code transcripts, Cline/Roo histories, labelled intents, or folders of them',
    },
  ],
  options: [
    { flags: '--learn', description: 'update the usage store from the recordings' },
    storeOption(
      'usage store to start from and --learn into: a file (default: in the user data folder) or postgres://…',
    ),
    { flags: '--no-store', description: 'replay from nothing, not from what the usage store knows' },
    {
      flags: '--user <name>',
      description:
        'with --learn: attribute the learned calls to this user (stored hashed unless the config says plain)',
      needs: { flag: '--learn', why: 'It names who the calls --learn writes are from.' },
    },
    { flags: '--tune', description: 'search the hybrid weights with cross-validation by session' },
    {
      flags: '--folds <n>',
      description: 'folds for --tune',
      default: '5',
      needs: { flag: '--tune', why: "It splits the sessions for --tune's cross-validation; nothing else is folded." },
    },
    { flags: '--write', description: 'with --tune: store the tuned weights in mcp-smart.config.json' },
    { flags: '--min-recall <r>', description: 'exit 1 when hybrid Recall@5 falls below this' },
    { flags: '-k <n>', description: 'k for the top-k token comparison', default: '5' },
    {
      flags: '--ttl-days <days>',
      description: 'usage memory: forget tools unused for this many days before the newest recording (0 = never)',
      // DEFAULT_STORE_TTL_DAYS (usage-store.ts, not imported: --help stays light); a unit test holds them equal.
      default: '90',
    },
    {
      flags: '--seed <n>',
      description: 'seed for the --tune search and folds',
      default: '1',
      needs: { flag: '--tune', why: "It seeds --tune's search and folds; nothing else is drawn at random." },
    },
  ],
  help: '\nExamples:\n  mcp-smart replay ~/.claude/projects --snapshot snap.json\n  mcp-smart replay sessions/ --tune --write',
  load: async () => (await import('./replay.js')).runReplayCommand,
};

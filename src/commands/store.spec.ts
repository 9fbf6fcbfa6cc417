/** `mcp-smart store`: its declaration (spec.ts). */
import { storeOption, type CommandSpec } from './spec.js';

export const storeSpec: CommandSpec = {
  name: 'store',
  description:
    'the usage store: set up a team store (init), move a file store into it and back (import, export), forget a tool or a user, show the scope derived from use (scope)',
  args: [
    {
      name: '<action>',
      description: 'init, import <file>, export <file>, forget --tool <id> | --user <name>, or scope',
    },
    { name: '[file]', description: 'import: the usage store file to read; export: the file to write' },
  ],
  options: [
    storeOption('the store acted on: postgres://… or a file (default: store in config, else the user data folder)'),
    { flags: '--tool <id>', description: 'forget: a tool id (repeatable)', repeatable: true },
    {
      flags: '--user <name>',
      description: "forget: a user's calls (the name, labelled as the config says, or the stored label)",
    },
    { flags: '--force', description: 'export: replace an existing file' },
    { flags: '--project <dir>', description: "scope: only this directory's project (its key is a hash of the path)" },
  ],
  help: '\nExamples:\n  mcp-smart store init --store postgres://mcp@db.internal/mcp_smart\n  mcp-smart store import ~/.local/share/mcp-smart/usage.json --store postgres://mcp@db.internal/mcp_smart',
  load: async () => (await import('./store.js')).runStoreCommand,
};

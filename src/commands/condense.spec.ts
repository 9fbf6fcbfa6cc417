/** `mcp-smart condense`: its declaration (spec.ts). */
import { outputOption, renderOption, type CommandSpec } from './spec.js';

export const condenseSpec: CommandSpec = {
  name: 'condense',
  description: 'write condensed tool definitions and show before/after tokens',
  options: [
    {
      flags: '--level <level>',
      description: 'how far to condense',
      choices: ['lossless', 'compact', 'minimal', 'names', 'meta'],
      default: 'lossless',
    },
    outputOption('write the condensed definitions here (default: stdout with --json)'),
    renderOption('rendering used for the token counts'),
  ],
  help: '\nExamples:\n  mcp-smart condense --level lossless -o tools.lossless.json\n  mcp-smart condense --level minimal --snapshot snap.json --json',
  load: async () => (await import('./condense.js')).runCondenseCommand,
};

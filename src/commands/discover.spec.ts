/** `mcp-smart discover`: its declaration (spec.ts). */
import { storeOption, type CommandSpec } from './spec.js';

export const discoverSpec: CommandSpec = {
  name: 'discover',
  description: 'rank the tools of your servers for a natural-language intent',
  args: [{ name: '[intent]', description: 'what you want to do, in plain words' }],
  options: [
    { flags: '-k <n>', description: 'how many tools to show (default 5; 3 for the keyword engine)' },
    {
      flags: '--engine <engine>',
      description: 'ranking engine',
      choices: ['keyword', 'bm25', 'semantic', 'hybrid'],
      default: 'hybrid',
    },
    { flags: '--explain', description: "show each signal's contribution to the score" },
    { flags: '--queries <file>', description: 'labelled intents (.jsonl) to evaluate: prints Recall@k and MRR' },
    {
      flags: '--model <model>',
      description:
        'a sentence model for the semantic signal instead of the shipped word vectors: use-lite (optional npm packages) or a local ' +
        'sentence-transformers ONNX folder (optional onnxruntime-web)',
    },
    storeOption('usage store to read the usage prior from (a file or postgres://…)'),
  ],
  help: '\nExamples:\n  mcp-smart discover "read a file from disk" -k 3\n  mcp-smart discover --queries intents.jsonl --engine bm25 --json',
  load: async () => (await import('./discover.js')).runDiscoverCommand,
};

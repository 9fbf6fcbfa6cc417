/** `discover "<intent>"`: rank the tools of the selected servers; `--queries` evaluates labelled intents. */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { discoverTools, type DiscoverOptions } from '../app/use-cases/discover.js';
import type { DiscoverResult } from '../core/discover/result.js';
import { SmartError } from '../process/errors.js';
import { filesBytes, withSteadyYoungGeneration } from '../process/young-generation.js';
import { renderDiscover } from '../reporters/discover.js';
import { ENGINES } from '../core/types.js';
import { optionalString, parseChoiceFlag, parseIntFlag } from '../app/services/flags.js';

export interface DiscoverFlags {
  queries?: string;
  engine?: string;
  k?: string;
  model?: string;
  store?: string;
  explain?: boolean;
}

export async function runDiscoverCommand(
  ctx: CommandContext,
  args: string[],
  flags: DiscoverFlags,
): Promise<CommandOutcome<DiscoverResult>> {
  const { io, global } = ctx;
  const intent = optionalString(args[0]?.trim());
  const queries = optionalString(flags.queries);
  if (!intent && !queries) {
    throw new SmartError('USAGE', { kind: 'discover-intent' });
  }
  // Both given: the intent was ignored without a word.
  if (intent && queries)
    throw new SmartError('BAD_FLAG', {
      flag: '--queries',
      value: queries,
      hint: `Give an intent or --queries <intents.jsonl>, not both (the intent ${JSON.stringify(intent)} would not be ranked).`,
    });
  const engine = parseChoiceFlag('--engine', flags.engine ?? 'hybrid', ENGINES);
  // The router note returns the top 3; the other engines default to 5. An explicit -k wins for every engine.
  const k =
    flags.k === undefined
      ? engine === 'keyword'
        ? 3
        : 5
      : parseIntFlag('-k', flags.k, { min: 1, max: 10_000, example: '5' });
  const options: DiscoverOptions = { engine, k };
  if (intent) options.intent = intent;
  if (queries) options.queries = queries;
  const model = optionalString(flags.model);
  if (model) options.model = model;
  const store = optionalString(flags.store);
  if (store) options.store = store;
  // An evaluation prints its metrics and misses; --explain (each signal of one ranking) added nothing, without a word.
  if (queries && flags.explain === true)
    io.stderr('warning: --explain is ignored with --queries: it explains the ranking of one intent\n');
  const run = async (): Promise<CommandOutcome<DiscoverResult>> => {
    const { result, exitCode, afterAnswer } = await discoverTools(ctx, options);
    io.stdout(renderDiscover(result, { format: global.format, chalk: ctx.chalk, explain: flags.explain === true }));
    // A first run's caches are written once the answer is out (atomically, as before; best effort).
    await afterAnswer();
    return { result, exitCode };
  };
  // One intent ranked on a small catalogue: its young generation stays small (process/young-generation.ts). An
  // evaluation of many intents keeps V8's defaults.
  return queries ? run() : withSteadyYoungGeneration(filesBytes(global.snapshot, io.cwd), run);
}

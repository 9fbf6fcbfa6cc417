/** `replay <paths...>`: ranking quality on recorded sessions, usage learning (--learn), weight tuning (--tune). */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { optionalString, parseFloatFlag, parseIntFlag } from '../app/services/flags.js';
import { replaySessions, type ReplayOptions } from '../app/use-cases/replay.js';
import type { ReplayResult } from '../core/session/result.js';
import { DEFAULT_STORE_TTL_DAYS } from '../core/session/usage-store.js';
import { SmartError } from '../process/errors.js';
import { renderReplay } from '../reporters/replay.js';

export interface ReplayFlags {
  k?: string;
  folds?: string;
  seed?: string;
  ttlDays?: string;
  minRecall?: string;
  tune?: boolean;
  write?: boolean;
  learn?: boolean;
  /** false with --no-store. */
  store?: string | false;
  user?: string;
}

export async function runReplayCommand(
  ctx: CommandContext,
  args: string[],
  flags: ReplayFlags,
): Promise<CommandOutcome<ReplayResult>> {
  if (args.length === 0) {
    throw new SmartError('USAGE', { kind: 'replay-recordings' });
  }
  const options: ReplayOptions = {
    paths: args,
    k: parseIntFlag('-k', flags.k ?? '5', { min: 1, max: 10_000, example: '5' }),
    folds: parseIntFlag('--folds', flags.folds ?? '5', { min: 2, max: 100, example: '5' }),
    seed: parseIntFlag('--seed', flags.seed ?? '1', { min: 0, example: '1' }),
    // The store's rule (discover, budget and serve read it by): replay measures and prunes as they will.
    ttlDays: parseFloatFlag('--ttl-days', flags.ttlDays ?? String(DEFAULT_STORE_TTL_DAYS), { min: 0, example: '90' }),
    tune: flags.tune === true,
    write: flags.write === true,
    learn: flags.learn === true,
  };
  if (flags.minRecall !== undefined)
    options.minRecall = parseFloatFlag('--min-recall', flags.minRecall, { min: 0, max: 1, example: '0.8' });
  if (options.write && !options.tune) throw new SmartError('USAGE', { kind: 'write-needs-tune' });
  if (flags.store === false) options.noStore = true;
  else {
    const store = optionalString(flags.store);
    if (store) options.store = store;
  }
  const user = optionalString(flags.user);
  if (user) options.user = user;
  if (options.noStore && options.learn) throw new SmartError('USAGE', { kind: 'learn-needs-store' });

  const { result, exitCode } = await replaySessions(ctx, options);
  ctx.io.stdout(renderReplay(result, { format: ctx.global.format, chalk: ctx.chalk }));
  return { result, exitCode };
}

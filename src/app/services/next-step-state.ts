/** The state `servers` and `audit` choose their closing next step from: baseline on disk, client configs, budget. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_BASELINE } from '../../core/budget/index.js';

import type { ClientResolution } from '../../core/config/resolve.js';
import { chooseNextStep, type NextStep } from '../../core/next-step.js';
import type { Io } from '../../process/io.js';
import type { ClientId, SmartConfig } from '../../core/types.js';
import { resolveLimits } from './budget-limits.js';

export interface NextStepInput {
  command: 'servers' | 'audit';
  config: SmartConfig;
  /** Enabled servers listed or audited. */
  servers: number;
  /** Each client's servers (absent for snapshots); `only` is the client --client chose. */
  clients?: readonly ClientResolution[];
  only?: ClientId;
  /** `-s`: only these servers count (empty: all). */
  names?: readonly string[];
  /** audit: the full tool tokens and the --window the audit used (the budget's --max when the config has none). */
  audit?: { tokens: number; window: number };
}

/** The next step for this setup, or undefined when there is nothing to suggest (no servers). */
export function nextStepFor(io: Pick<Io, 'cwd'>, input: NextStepInput): NextStep | undefined {
  const { config } = input;
  const file = config.baseline ?? DEFAULT_BASELINE;
  const clients = (input.clients ?? [])
    .filter((c) => input.only === undefined || c.client === input.only)
    .map((c) => ({
      client: c.client,
      servers: c.servers.filter((d) => d.enabled && (!input.names?.length || input.names.includes(d.name))).length,
    }));
  let budget: { tokens: number; limit: number; max: number } | undefined;
  if (input.audit) {
    const { max, limit } = resolveLimits(
      config.budget?.max === undefined ? { max: String(input.audit.window) } : {},
      config,
    );
    budget = { tokens: input.audit.tokens, limit, max };
  }
  return chooseNextStep({
    command: input.command,
    servers: input.servers,
    baseline: { file, exists: existsSync(resolve(io.cwd, file)) },
    clients,
    ...(budget ? { budget } : {}),
  });
}

/** The global options that define the setup, as words to repeat in a suggested command (ad-hoc servers left out). */
export function setupWords(global: {
  demo: boolean;
  snapshot: readonly string[];
  config: readonly string[];
  server: readonly string[];
  client?: ClientId;
}): string[] {
  return [
    ...(global.demo ? ['--demo'] : []),
    ...global.snapshot.flatMap((f) => ['--snapshot', f]),
    ...global.config.flatMap((f) => ['-c', f]),
    ...global.server.flatMap((s) => ['-s', s]),
    ...(global.client ? ['--client', global.client] : []),
  ];
}

/** What every command receives: the io edge, parsed global options, and the single chalk instance. */
import type { ChalkInstance } from 'chalk';
import type { Io } from '../../process/io.js';
import type { AdhocServer, ClientId, Encoding, OutputFormat } from '../../core/types.js';

export type { AdhocServer };

export interface GlobalOptions {
  config: string[];
  snapshot: string[];
  adhoc: AdhocServer[];
  server: string[];
  /** `--client`: only the servers that client loads. */
  client?: ClientId;
  format: OutputFormat;
  /** True when the user chose the format explicitly (--json / --format). */
  formatExplicit: boolean;
  encoding: Encoding;
  timeoutMs: number;
  cache: boolean;
  /** `--cache`: read the tool-list cache even where a gate lists anew (check, dump -o, dump under CI=true). */
  cacheAsked?: boolean;
  demo: boolean;
  color: boolean;
  debug: boolean;
  /** `--auth-open <command|none>`; undefined when not given (then no command but `login` authorizes). */
  authOpen?: string;
  /** `--trust-project`: start the project's own servers this run without an approval on record. */
  trustProject?: boolean;
}

export interface CommandContext {
  io: Io;
  global: GlobalOptions;
  chalk: ChalkInstance;
}

export interface CommandOutcome<R = unknown> {
  result: R;
  exitCode: number;
}

/** What a use case needs of the context: the io edge and the global options (no presentation). */
export type AppContext = Pick<CommandContext, 'io' | 'global'>;

/** Progress on stderr, only when stderr is a TTY (not in CI) and the output is not JSON; MCP_SMART_PROGRESS=1 forces it. */
import type { ConnectProgress } from '../../core/connect/index.js';
import type { Io } from '../../process/io.js';
import { lineClear } from '../../process/terminal-text.js';
import { countOf } from '../../reporters/format.js';
import { envSwitch } from '../../process/env-values.js';
import type { OutputFormat } from '../../core/types.js';

export interface Progress {
  update: (p: ConnectProgress) => void;
  done: () => void;
}

export function createProgress(io: Io, format: OutputFormat, total: number): Progress {
  if (!progressWanted(io, format)) return { update: () => {}, done: () => {} };
  let finished = 0;
  const pending = new Set<string>();
  const draw = (): void => {
    const names = [...pending].slice(0, 3).join(', ');
    io.stderr(`${lineClear()}Connecting ${finished}/${total}${names ? ` — waiting for ${names}` : ''}`);
  };
  return {
    update: (p) => {
      if (p.phase === 'start') pending.add(p.server);
      else {
        pending.delete(p.server);
        finished++;
      }
      draw();
    },
    done: () => io.stderr(lineClear()),
  };
}

/** The warning of an evaluation (discover/check --queries) whose labelled file names ids no loaded tool has. */
export function warnUnknownExpected(io: Pick<Io, 'stderr'>, file: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  io.stderr(
    `warning: ${file}: ${countOf(ids.length, 'expected id')} not among the loaded tools, scored as misses: ` +
      `${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''}\n`,
  );
}

/** Under --debug, one stderr line as a long phase starts ("debug: tuning weights on 30,000 cases"). */
export function debugPhase(ctx: { io: Io; global: { debug: boolean } }, text: string): void {
  if (ctx.global.debug) ctx.io.stderr(`debug: ${text}\n`);
}

/** A line about long work (replaying, tuning, counting): what is being done and how far. */
export interface WorkProgress {
  /** `done` of `total` steps (total 0 when unknown), and what the current step is. Throttled. */
  step: (done: number, total: number, what?: string) => void;
  /** Clears the line. */
  done: () => void;
}

/** MCP_SMART_PROGRESS: 1 (true, yes, on) forces progress lines, 0 (false, no, off) turns them off. */
const progressForced = (io: Pick<Io, 'env'>): boolean | undefined =>
  envSwitch(io.env, 'MCP_SMART_PROGRESS', 'to draw progress lines even without a terminal');

/** Whether progress lines are drawn: MCP_SMART_PROGRESS=1 forces them (tests, a watched CI log), =0 turns them off. */
export function progressWanted(io: Pick<Io, 'env' | 'stderrIsTTY'>, format: OutputFormat): boolean {
  const forced = progressForced(io); // read first, so a value it does not take is refused with --json too
  if (format === 'json') return false;
  if (forced !== undefined) return forced;
  // A CI runner may attach a pseudo-terminal; its logs keep every redraw, so progress is off there unless asked.
  return io.stderrIsTTY && !io.env.CI;
}

const NO_WORK: WorkProgress = { step: () => {}, done: () => {} };

/**
 * A throttled progress line on stderr for `label` ("Replaying", "Tuning", "Counting tokens"): redrawn at most every
 * `intervalMs`, and only once the work has taken `delayMs` (short work shows nothing).
 */
export function createWorkProgress(
  io: Io,
  format: OutputFormat,
  label: string,
  opts: { intervalMs?: number; delayMs?: number; now?: () => number } = {},
): WorkProgress {
  if (!progressWanted(io, format)) return NO_WORK;
  const now = opts.now ?? Date.now;
  const interval = opts.intervalMs ?? 100;
  const started = now();
  // Forced on (a test, a watched log), every piece of work is shown, however short; on a terminal, short work shows nothing.
  const delay = opts.delayMs ?? (progressForced(io) === true ? 0 : 200);
  let last = -Infinity;
  let drawn = false;
  return {
    step: (done, total, what) => {
      const t = now();
      if (t - started < delay || t - last < interval) return;
      last = t;
      drawn = true;
      const pct = total > 0 ? ` ${formatCount(done)}/${formatCount(total)} (${Math.floor((done / total) * 100)}%)` : '';
      io.stderr(`${lineClear()}${label}${pct}${what ? ` — ${what}` : ''}`);
    },
    done: () => {
      if (drawn) io.stderr(lineClear());
      drawn = false;
    },
  };
}

const formatCount = (n: number): string => n.toLocaleString('en-US');

/** Progress on stderr, only when stderr is a TTY and the output is not JSON. */
import type { ConnectProgress } from '../core/connect/index.js';
import type { Io } from '../io.js';
import type { OutputFormat } from '../types.js';

export interface Progress {
  update: (p: ConnectProgress) => void;
  done: () => void;
}

export function createProgress(io: Io, format: OutputFormat, total: number): Progress {
  if (!io.stderrIsTTY || format === 'json') return { update: () => {}, done: () => {} };
  let finished = 0;
  const pending = new Set<string>();
  const draw = (): void => {
    const names = [...pending].slice(0, 3).join(', ');
    io.stderr(`\r\x1b[2KConnecting ${finished}/${total}${names ? ` — waiting for ${names}` : ''}`);
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
    done: () => io.stderr('\r\x1b[2K'),
  };
}

/** Under --debug, one stderr line as a long phase starts ("debug: tuning weights on 30,000 cases"). */
export function debugPhase(ctx: { io: Io; global: { debug: boolean } }, text: string): void {
  if (ctx.global.debug) ctx.io.stderr(`debug: ${text}\n`);
}

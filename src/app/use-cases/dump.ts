/** The `dump` use case: connect to every selected server and write (or return) the snapshot document. */
import { resolve } from 'node:path';
import { checkWriteTarget, writeFileSafe } from '../../process/safe-write.js';
import { buildSnapshot, dumpSummary, SNAPSHOT_KIND, type DumpResult } from '../../core/snapshot.js';
import { SmartError } from '../../process/errors.js';
import type { ServerSnapshot } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { loadSetup, serverFailureCode } from '../services/setup.js';

export interface DumpOptions {
  /** Write the snapshot here (relative to cwd); without it the snapshot text is returned for stdout. */
  output?: string;
}

export interface DumpOutcome {
  result: DumpResult;
  servers: ServerSnapshot[];
  /** The snapshot document, when it was not written to a file. */
  text?: string;
  exitCode: number;
}

export async function dumpServers(ctx: AppContext, options: DumpOptions): Promise<DumpOutcome> {
  const { io } = ctx;
  // A snapshot written to a file, or any dump in CI, is what a gate reads: it lists every server now (issue 36),
  // never a cached list, unless --cache asks for one.
  const fresh = (options.output !== undefined || io.env.CI === 'true') && ctx.global.cacheAsked !== true;
  // A folder or a file we may not replace is said before connecting, not after every server was listed.
  if (options.output) await checkWriteTarget(resolve(io.cwd, options.output), SNAPSHOT_KIND);
  const { servers, paths } = await loadSetup(ctx.global, io, { fresh });
  // A Ctrl-C mid-connect must not replace a good snapshot with a half-finished one.
  if (io.signal?.aborted) throw new SmartError('CONNECT_ABORTED', { phase: 'dump; nothing was written' });
  // `source` is written relative to the project (or with ~), so the snapshot does not carry this machine's paths.
  const snapshot = buildSnapshot(servers, new Date().toISOString(), { cwd: io.cwd, home: paths.pathEnv.home });
  const text = JSON.stringify(snapshot, null, 2) + '\n';
  const result = dumpSummary(servers);
  const exitCode = serverFailureCode(servers);
  if (!options.output) return { result, servers, text, exitCode };
  const file = resolve(io.cwd, options.output);
  await writeFileSafe(file, text, { kind: SNAPSHOT_KIND });
  result.output = file;
  return { result, servers, exitCode };
}

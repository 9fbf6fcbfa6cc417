/** `dump [-o file]`: connect to every server and write a snapshot (stdout when no -o). */
import { resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { SmartError } from '../errors.js';
import { buildSnapshot } from '../core/snapshot.js';
import { renderJson } from '../reporters/format.js';
import type { ServerSnapshot } from '../types.js';
import type { CommandContext, CommandOutcome } from './context.js';
import { loadServers, pathEnvOf, serverFailureCode } from './load.js';
import { optionalString } from './parse.js';

export interface DumpResult {
  output?: string;
  servers: { name: string; status: 'ok' | 'error'; error?: string; toolCount: number; cached?: boolean }[];
}

function summaryLines(servers: ServerSnapshot[], ctx: CommandContext): string {
  const { chalk } = ctx;
  const width = Math.max(0, ...servers.map((s) => s.name.length));
  return servers
    .map((s) => {
      const name = s.name.padEnd(width);
      if (s.status === 'error') return `  ${chalk.red('FAIL')} ${name}  ${s.error ?? 'failed'}\n`;
      const extra = [
        s.prompts ? `${s.prompts.length} prompts` : '',
        s.resources ? `${s.resources.length} resources` : '',
      ]
        .filter(Boolean)
        .join(', ');
      const note = s.cached ? ' (cached)' : '';
      return `  ${chalk.green('ok  ')} ${name}  ${s.tools.length} tools${extra ? `, ${extra}` : ''}${note}\n`;
    })
    .join('');
}

export async function runDumpCommand(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<DumpResult>> {
  const { io } = ctx;
  const output = optionalString(opts.output);
  const { servers } = await loadServers(ctx);
  // A Ctrl-C mid-connect must not replace a good snapshot with a half-finished one.
  if (io.signal?.aborted) throw new SmartError('CONNECT_ABORTED', { phase: 'dump; nothing was written' });
  const snapshot = buildSnapshot(servers, new Date().toISOString(), { cwd: io.cwd, home: pathEnvOf(ctx).home });
  const text = JSON.stringify(snapshot, null, 2) + '\n';
  const result: DumpResult = {
    servers: servers.map((s) => ({
      name: s.name,
      status: s.status,
      ...(s.error !== undefined ? { error: s.error } : {}),
      toolCount: s.tools.length,
      ...(s.cached ? { cached: true } : {}),
    })),
  };
  if (output) {
    const file = resolve(io.cwd, output);
    await writeFileAtomic(file, text);
    result.output = file;
    if (ctx.global.format === 'json') io.stdout(renderJson('dump', result));
  } else {
    io.stdout(text);
  }
  const failed = servers.filter((s) => s.status === 'error').length;
  io.stderr(summaryLines(servers, ctx));
  io.stderr(
    `${output ? `Wrote ${output}` : 'Snapshot written to stdout'}: ${servers.length} server${servers.length === 1 ? '' : 's'}` +
      `${failed ? `, ${failed} failed` : ''}.\n`,
  );
  return { result, exitCode: serverFailureCode(servers) };
}

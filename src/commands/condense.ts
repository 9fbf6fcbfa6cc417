/** `condense`: condensed tool definitions at a level, with before/after tokens. */
import { resolve } from 'node:path';
import { RENDER_STYLES } from '../app/counter.js';
import { writeFileAtomic } from '../atomic-write.js';
import { META_SERVER_NAME } from '../core/audit/index.js';
import { condenseTools } from '../core/condense/index.js';
import { countServerTokens, createTokenCounter } from '../core/tokens/index.js';
import type { CondenseOutput } from '../core/condense/result.js';
import { renderCondenseSummary } from '../reporters/condense.js';
import { renderJson } from '../reporters/format.js';
import { CONDENSE_LEVELS, type ServerSnapshot } from '../types.js';
import { countCacheDir } from './load.js';
import type { CommandContext, CommandOutcome } from './context.js';
import { loadServers, serverFailureCode } from './load.js';
import { optionalString, parseChoiceFlag } from './parse.js';

export async function runCondenseCommand(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<CondenseOutput>> {
  const level = parseChoiceFlag('--level', opts.level ?? 'lossless', CONDENSE_LEVELS);
  const render = parseChoiceFlag('--render', opts.render ?? 'json', RENDER_STYLES);
  const output = optionalString(opts.output);

  const { servers } = await loadServers(ctx);
  const ok: ServerSnapshot[] = servers.filter((s) => s.status === 'ok');
  const condensed =
    level === 'meta'
      ? [{ name: META_SERVER_NAME, tools: condenseTools([], 'meta') }]
      : ok.map((s) => ({ name: s.name, tools: condenseTools(s.tools, level) }));
  const counter = await createTokenCounter(ctx.global.encoding, { cacheDir: countCacheDir(ctx) });
  const beforeByServer = new Map(ok.map((s) => [s.name, countServerTokens(s.tools, counter, render, s.name).total]));
  const before = [...beforeByServer.values()].reduce((a, b) => a + b, 0);
  const serversOut = condensed.map((s) => {
    const after = countServerTokens(s.tools, counter, render, s.name).total;
    return { name: s.name, tokens: { before: beforeByServer.get(s.name) ?? 0, after }, tools: s.tools };
  });
  const after = serversOut.reduce((a, s) => a + s.tokens.after, 0);
  await counter.flush?.();
  const result: CondenseOutput = {
    level,
    encoding: counter.encoding,
    render,
    before: { tokens: before },
    after: { tokens: after },
    servers: serversOut,
  };

  const doc = renderJson('condense', result);
  if (output) await writeFileAtomic(resolve(ctx.io.cwd, output), doc);
  if (ctx.global.format === 'json') ctx.io.stdout(doc);
  else {
    ctx.io.stdout(
      renderCondenseSummary(result, {
        format: ctx.global.format === 'table' ? 'table' : 'markdown',
        chalk: ctx.chalk,
        output,
      }),
    );
    if (!output) ctx.io.stderr('Pass -o <file> to write the condensed definitions, or --json to print them.\n');
  }
  return { result, exitCode: serverFailureCode(servers) };
}

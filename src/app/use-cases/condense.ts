/** The `condense` use case: every tool at one condense level, with before/after tokens; -o writes the document. */
import { resolve } from 'node:path';
import { checkWriteTarget, writeFileSafe } from '../../process/safe-write.js';
import { META_SERVER_NAME } from '../../core/audit/index.js';
import { condenseTools } from '../../core/condense/index.js';
import type { CondenseOutput } from '../../core/condense/result.js';
import { countServerTokens, createTokenCounter, renderTool, type RenderStyle } from '../../core/tokens/index.js';
import { computing, countPausing } from '../../process/signals.js';
import { countOf } from '../../reporters/format.js';
import { debugPhase } from '../services/progress.js';
import { documentKind, renderJson } from '../../reporters/json.js';
import type { CondenseLevel, ServerSnapshot } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { loadSetup, reportUnreachable } from '../services/setup.js';

export interface CondenseOptions {
  level: CondenseLevel;
  render: RenderStyle;
  output?: string;
}

/** What `-o` writes: an existing file is replaced only when it holds a condense document. */
const CONDENSE_DOCUMENT = documentKind('condense');

export async function condenseServers(
  ctx: AppContext,
  options: CondenseOptions,
): Promise<{ result: CondenseOutput; exitCode: number }> {
  const { io, global } = ctx;
  const { level, render, output } = options;
  if (output) await checkWriteTarget(resolve(io.cwd, output), CONDENSE_DOCUMENT); // before connecting
  const { servers, paths } = await loadSetup(global, io);
  const ok: ServerSnapshot[] = servers.filter((s) => s.status === 'ok');
  const { condensed, counter } = await computing(async (pause) => {
    debugPhase(
      ctx,
      `condensing and counting ${countOf(
        ok.reduce((n, s) => n + s.tools.length, 0),
        'tool',
      )}`,
    );
    const condensed: { name: string; tools: ReturnType<typeof condenseTools> }[] = [];
    if (level === 'meta') condensed.push({ name: META_SERVER_NAME, tools: condenseTools([], 'meta') });
    else
      for (const s of ok) {
        condensed.push({ name: s.name, tools: condenseTools(s.tools, level) });
        await pause();
      }
    const counter = await createTokenCounter(global.encoding, { cacheDir: paths.activeCacheDir });
    const tools = [...ok.flatMap((s) => s.tools), ...condensed.flatMap((s) => s.tools)];
    await countPausing(
      counter,
      tools.map((t) => renderTool(t, render)),
      pause,
    );
    return { condensed, counter };
  });
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
  // The file holds the same document --json prints.
  if (output) await writeFileSafe(resolve(io.cwd, output), renderJson('condense', result), { kind: CONDENSE_DOCUMENT });
  return { result, exitCode: reportUnreachable(io, servers, 'its tools are not in the condensed output') };
}

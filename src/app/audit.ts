/** The `audit` use case: tokens per server and tool at every condense level, findings, optional exact Claude figures. */
import {
  atOrAbove,
  countAudit,
  renderAuditSteps,
  type AuditResult,
  type HiddenTools,
  type Severity,
} from '../core/audit/index.js';
import { hiddenSnapshots, sentSnapshots } from '../core/config/tool-filter.js';
import { ANTHROPIC_DEFAULT_MODEL, countToolsWithAnthropic, type AnthropicFigures } from '../core/tokens/anthropic.js';
import type { RenderStyle } from '../core/tokens/index.js';
import { remoteFailure } from '../errors.js';
import { scrubMessage } from '../secrets.js';
import { computing, countPausing, runStepsPausing } from '../signals.js';
import { countOf } from '../reporters/format.js';
import { debugPhase } from './progress.js';
import type { ServerSnapshot } from '../types.js';
import type { AppContext } from './context.js';
import { counterForTexts } from './counter.js';
import { loadSetup, serverFailureCode } from './setup.js';

export interface AuditOptions {
  failOn?: Severity;
  window: number;
  render: RenderStyle;
  /** Set when --anthropic-count asked for exact Claude figures (checked before connecting). */
  anthropicKey?: string;
}

export type AuditOutput = AuditResult;

export interface AuditOutcome {
  result: AuditOutput;
  /** The snapshots counted (tools the client hides left out), for reports that need their sources. */
  servers: ServerSnapshot[];
  exitCode: number;
}

export async function auditServers(ctx: AppContext, options: AuditOptions): Promise<AuditOutcome> {
  const { io, global } = ctx;
  const loaded = await loadSetup(global, io);
  // Count only what the client sends; tools its config hides are counted apart.
  const servers = sentSnapshots(loaded.servers, loaded.hidden ?? {});
  const { result, counter } = await computing(async (pause) => {
    const tools = servers.reduce((n, s) => n + (s.status === 'ok' ? s.tools.length : 0), 0);
    debugPhase(ctx, `counting ${countOf(tools, 'tool')} at every condense level`);
    const rendered = await runStepsPausing(renderAuditSteps(servers, options.render), pause);
    const hiddenSnaps = hiddenSnapshots(loaded.servers, loaded.hidden ?? {});
    const hiddenRendered = await runStepsPausing(renderAuditSteps(hiddenSnaps, options.render), pause);
    const texts = [...rendered.texts, ...hiddenRendered.texts];
    const counter = await counterForTexts(global.encoding, loaded.paths.activeCacheDir, texts);
    await countPausing(counter, texts, pause);
    const result: AuditOutput = countAudit(rendered, counter, { window: options.window });
    const hidden: HiddenTools[] = countAudit(hiddenRendered, counter, { window: options.window }).servers.map((s) => ({
      server: s.name,
      tools: s.tools.map((t) => ({ id: t.id, name: t.name, tokens: t.tokens.full })),
      tokens: s.tools.reduce((n, t) => n + t.tokens.full, 0),
    }));
    if (hidden.length > 0) result.hidden = hidden;
    return { result, counter };
  });
  await counter.flush?.();

  let remoteFailed = 0;
  const apiKey = options.anthropicKey;
  if (apiKey) {
    const model = io.env.ANTHROPIC_COUNT_MODEL || ANTHROPIC_DEFAULT_MODEL;
    const figures: AnthropicFigures = { model, servers: [], total: 0 };
    try {
      for (const s of servers.filter((x) => x.status === 'ok')) {
        const tokens = await countToolsWithAnthropic(s.tools, {
          apiKey,
          model,
          fetch: (url, init) => fetch(url, init),
        });
        figures.servers.push({ name: s.name, tokens });
        figures.total += tokens;
      }
      result.anthropic = figures;
    } catch (e) {
      // The local report stands on its own: a failed request is a reported problem (exit 3), not a lost run.
      const failure = remoteFailure(e, 'Anthropic token counting');
      io.stderr(`warning: ${scrubMessage(failure.message)}; the local figures below are complete\n`);
      remoteFailed = failure.exitCode;
    }
  }
  const failOn = options.failOn;
  const failed = failOn !== undefined && result.findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
  return { result, servers, exitCode: Math.max(failed, serverFailureCode(servers), remoteFailed) };
}

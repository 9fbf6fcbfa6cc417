/** The `audit` use case: tokens per server and tool at every condense level, findings, optional exact Claude figures. */
import { atOrAbove, countAudit, renderAudit, type AuditResult, type Severity } from '../core/audit/index.js';
import { ANTHROPIC_DEFAULT_MODEL, countToolsWithAnthropic, type AnthropicFigures } from '../core/tokens/anthropic.js';
import type { RenderStyle } from '../core/tokens/index.js';
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

export async function auditServers(
  ctx: AppContext,
  options: AuditOptions,
): Promise<{ result: AuditResult; exitCode: number }> {
  const { io, global } = ctx;
  const { servers, paths } = await loadSetup(global, io);
  const rendered = renderAudit(servers, options.render);
  const counter = await counterForTexts(global.encoding, paths.activeCacheDir, rendered.texts);
  const result = countAudit(rendered, counter, { window: options.window });
  await counter.flush?.();

  const apiKey = options.anthropicKey;
  if (apiKey) {
    const model = io.env.ANTHROPIC_COUNT_MODEL || ANTHROPIC_DEFAULT_MODEL;
    const figures: AnthropicFigures = { model, servers: [], total: 0 };
    for (const s of servers.filter((x) => x.status === 'ok')) {
      const tokens = await countToolsWithAnthropic(s.tools, { apiKey, model, fetch: (url, init) => fetch(url, init) });
      figures.servers.push({ name: s.name, tokens });
      figures.total += tokens;
    }
    result.anthropic = figures;
  }
  const failOn = options.failOn;
  const failed = failOn !== undefined && result.findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
  return { result, exitCode: Math.max(failed, serverFailureCode(servers)) };
}

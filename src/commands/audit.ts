/** `audit`: token cost per server and tool, condensing potential, findings. */
import {
  atOrAbove,
  countAudit,
  renderAudit,
  SEVERITIES,
  type AuditResult,
  type Severity,
} from '../core/audit/index.js';
import {
  ANTHROPIC_DEFAULT_MODEL,
  countToolsWithAnthropic,
  requireAnthropicKey,
  type AnthropicFigures,
} from '../core/tokens/anthropic.js';
import { counterForTexts, RENDER_STYLES } from '../app/counter.js';
import { renderAuditMarkdown, renderAuditTable } from '../reporters/audit.js';
import { renderJson } from '../reporters/format.js';
import type { CommandContext, CommandOutcome } from './context.js';
import { countCacheDir, loadServers, serverFailureCode } from './load.js';
import { parseChoiceFlag, parseIntFlag } from './parse.js';

export async function runAuditCommand(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<AuditResult>> {
  const failOn: Severity | undefined =
    opts.failOn === undefined ? undefined : parseChoiceFlag('--fail-on', opts.failOn, SEVERITIES);
  const top = parseIntFlag('--top', opts.top ?? '10', { min: 0 });
  const window = parseIntFlag('--window', opts.window ?? '200000', { min: 1 });
  const render = parseChoiceFlag('--render', opts.render ?? 'json', RENDER_STYLES);
  // Fail on a missing key before connecting to anything.
  const apiKey = opts.anthropicCount === true ? requireAnthropicKey(ctx.io.env.ANTHROPIC_API_KEY) : undefined;

  const { servers } = await loadServers(ctx);
  const rendered = renderAudit(servers, render);
  const counter = await counterForTexts(ctx.global.encoding, countCacheDir(ctx), rendered.texts);
  const result: AuditResult = countAudit(rendered, counter, { window });
  await counter.flush?.();

  if (apiKey) {
    const model = ctx.io.env.ANTHROPIC_COUNT_MODEL || ANTHROPIC_DEFAULT_MODEL;
    const figures: AnthropicFigures = { model, servers: [], total: 0 };
    for (const s of servers.filter((x) => x.status === 'ok')) {
      const tokens = await countToolsWithAnthropic(s.tools, { apiKey, model, fetch: (url, init) => fetch(url, init) });
      figures.servers.push({ name: s.name, tokens });
      figures.total += tokens;
    }
    result.anthropic = figures;
  }

  const { format } = ctx.global;
  if (format === 'json') ctx.io.stdout(renderJson('audit', result));
  else if (format === 'markdown' || format === 'github') ctx.io.stdout(renderAuditMarkdown(result, { top }));
  else ctx.io.stdout(renderAuditTable(result, { top, chalk: ctx.chalk }));

  const failed = failOn !== undefined && result.findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
  return { result, exitCode: Math.max(failed, serverFailureCode(servers)) };
}

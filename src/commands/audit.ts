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
import { createTokenCounter, prepareCounter, type RenderStyle, type TokenCounter } from '../core/tokens/index.js';
import { renderAuditMarkdown, renderAuditTable } from '../reporters/audit.js';
import { renderJson } from '../reporters/format.js';
import { hiddenSnapshots, sentSnapshots } from '../core/config/tool-filter.js';
import { writeAuditHtml } from './audit-html.js';
import type { CommandContext, CommandOutcome } from './context.js';
import { countCacheDir, loadServers, serverFailureCode } from './load.js';
import { parseChoiceFlag, parseIntFlag } from './parse.js';
import { remoteFailure } from '../errors.js';
import { scrubMessage } from '../secrets.js';
import { withDefaultSignals } from '../signals.js';

export const RENDER_STYLES: readonly RenderStyle[] = ['json', 'cline'];

/** A cache-backed counter that loads the tokenizer only if one of `texts` is not cached yet. */
export async function counterForTexts(ctx: CommandContext, texts: readonly string[]): Promise<TokenCounter> {
  const cacheDir = countCacheDir(ctx);
  const counter = await createTokenCounter(ctx.global.encoding, { cacheDir, deferLoad: true });
  await prepareCounter(counter, texts);
  return counter;
}

/** Tools the client's config hides from the model: listed apart, not in the totals. */
export interface HiddenTools {
  server: string;
  tools: { id: string; name: string; tokens: number }[];
  tokens: number;
}

export type AuditOutput = AuditResult & { anthropic?: AnthropicFigures; hidden?: HiddenTools[] };

export async function runAuditCommand(
  ctx: CommandContext,
  _args: string[],
  opts: Record<string, unknown>,
): Promise<CommandOutcome<AuditOutput>> {
  const failOn: Severity | undefined =
    opts.failOn === undefined ? undefined : parseChoiceFlag('--fail-on', opts.failOn, SEVERITIES);
  const top = parseIntFlag('--top', opts.top ?? '10', { min: 0 });
  const window = parseIntFlag('--window', opts.window ?? '200000', { min: 1 });
  const render = parseChoiceFlag('--render', opts.render ?? 'json', RENDER_STYLES);
  // Fail on a missing key before connecting to anything.
  const apiKey = opts.anthropicCount === true ? requireAnthropicKey(ctx.io.env.ANTHROPIC_API_KEY) : undefined;

  const loaded = await loadServers(ctx);
  const servers = sentSnapshots(loaded.servers, loaded.hidden ?? {});
  const rendered = renderAudit(servers, render);
  const hiddenRendered = renderAudit(hiddenSnapshots(loaded.servers, loaded.hidden ?? {}), render);
  const counter = await counterForTexts(ctx, [...rendered.texts, ...hiddenRendered.texts]);
  const result: AuditOutput = withDefaultSignals(() => countAudit(rendered, counter, { window }));
  const hidden: HiddenTools[] = countAudit(hiddenRendered, counter, { window }).servers.map((s) => ({
    server: s.name,
    tools: s.tools.map((t) => ({ id: t.id, name: t.name, tokens: t.tokens.full })),
    tokens: s.tools.reduce((n, t) => n + t.tokens.full, 0),
  }));
  if (hidden.length > 0) result.hidden = hidden;
  await counter.flush?.();

  let remoteFailed = 0;
  if (apiKey) {
    const model = ctx.io.env.ANTHROPIC_COUNT_MODEL || ANTHROPIC_DEFAULT_MODEL;
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
      ctx.io.stderr(`warning: ${scrubMessage(failure.message)}; the local figures below are complete\n`);
      remoteFailed = failure.exitCode;
    }
  }

  const { format } = ctx.global;
  if (format === 'json') ctx.io.stdout(renderJson('audit', result));
  else if (format === 'markdown' || format === 'github') ctx.io.stdout(renderAuditMarkdown(result, { top }));
  else ctx.io.stdout(renderAuditTable(result, { top, chalk: ctx.chalk }));
  if (format !== 'json' && hidden.length > 0) ctx.io.stdout(hiddenLines(hidden));

  if (typeof opts.html === 'string') await writeAuditHtml(ctx, opts.html, result, servers);

  const failed = failOn !== undefined && result.findings.some((f) => atOrAbove(f.severity, failOn)) ? 1 : 0;
  return { result, exitCode: Math.max(failed, serverFailureCode(servers), remoteFailed) };
}

/** Tools hidden by the client, apart from the totals above them. */
function hiddenLines(hidden: readonly HiddenTools[]): string {
  const lines = ['', 'Hidden by the client (listed by the server, not sent to the model, not in the totals):'];
  for (const h of hidden) {
    const names = h.tools.map((t) => t.name).join(', ');
    lines.push(
      `  ${h.server}: ${h.tools.length} tool${h.tools.length === 1 ? '' : 's'}, ${h.tokens.toLocaleString('en-US')} tokens — ${names}`,
    );
  }
  return lines.join('\n') + '\n';
}

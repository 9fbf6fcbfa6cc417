/** `audit`: token cost per server and tool, condensing potential, findings. */
import { auditServers, type AuditOptions, type AuditOutput } from '../app/use-cases/audit.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { RENDER_STYLES } from '../app/services/counter.js';
import { SEVERITIES } from '../core/audit/index.js';
import { requireAnthropicKey } from '../core/tokens/anthropic.js';
import { renderAuditReport } from '../reporters/audit.js';
import { parseChoiceFlag, parseIntFlag } from '../app/services/flags.js';
import { checkAuditHtmlTarget, writeAuditHtml } from './audit-html.js';
import { setupWords } from '../app/services/next-step-state.js';
import { renderNextStep } from '../reporters/next-step-line.js';

export type { AuditOutput };

export interface AuditFlags {
  failOn?: string;
  top?: string;
  window?: string;
  render?: string;
  anthropicCount?: boolean;
  /** `--html <file>`: also write the self-contained HTML report. */
  html?: string;
  /** `--baseline <file>`: the committed baseline whose servers must still be reached. */
  baseline?: string;
}

export async function runAuditCommand(
  ctx: CommandContext,
  _args: string[],
  flags: AuditFlags,
): Promise<CommandOutcome<AuditOutput>> {
  const failOn = flags.failOn === undefined ? undefined : parseChoiceFlag('--fail-on', flags.failOn, SEVERITIES);
  const top = parseIntFlag('--top', flags.top ?? '10', { min: 0, example: '10' });
  const options: AuditOptions = {
    window: parseIntFlag('--window', flags.window ?? '200000', { min: 1, example: '200000' }),
    render: parseChoiceFlag('--render', flags.render ?? 'json', RENDER_STYLES),
  };
  if (failOn !== undefined) options.failOn = failOn;
  if (typeof flags.baseline === 'string') options.baseline = flags.baseline;
  // Fail on a missing key before connecting to anything.
  if (flags.anthropicCount === true) options.anthropicKey = requireAnthropicKey(ctx.io.env.ANTHROPIC_API_KEY);

  // The HTML report's file is checked before connecting: a folder there is said now, not after the report printed.
  if (typeof flags.html === 'string') await checkAuditHtmlTarget(ctx, flags.html);
  const { result, servers, exitCode, next } = await auditServers(ctx, options);
  const { format } = ctx.global;
  ctx.io.stdout(renderAuditReport(result, { format, top, chalk: ctx.chalk }));
  // Guidance, not a result: stderr, and only under the table view.
  if (next && format === 'table') ctx.io.stderr(renderNextStep(next, 'audit', setupWords(ctx.global)));
  if (typeof flags.html === 'string') await writeAuditHtml(ctx, flags.html, result, servers);
  return { result, exitCode };
}

/** `audit`: token cost per server and tool, condensing potential, findings. */
import { auditServers, type AuditOptions } from '../app/audit.js';
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { RENDER_STYLES } from '../app/counter.js';
import { SEVERITIES, type AuditResult } from '../core/audit/index.js';
import { requireAnthropicKey } from '../core/tokens/anthropic.js';
import { renderAuditReport } from '../reporters/audit.js';
import { parseChoiceFlag, parseIntFlag } from '../app/flags.js';

export interface AuditFlags {
  failOn?: string;
  top?: string;
  window?: string;
  render?: string;
  anthropicCount?: boolean;
}

export async function runAuditCommand(
  ctx: CommandContext,
  _args: string[],
  flags: AuditFlags,
): Promise<CommandOutcome<AuditResult>> {
  const failOn = flags.failOn === undefined ? undefined : parseChoiceFlag('--fail-on', flags.failOn, SEVERITIES);
  const top = parseIntFlag('--top', flags.top ?? '10', { min: 0 });
  const options: AuditOptions = {
    window: parseIntFlag('--window', flags.window ?? '200000', { min: 1 }),
    render: parseChoiceFlag('--render', flags.render ?? 'json', RENDER_STYLES),
  };
  if (failOn !== undefined) options.failOn = failOn;
  // Fail on a missing key before connecting to anything.
  if (flags.anthropicCount === true) options.anthropicKey = requireAnthropicKey(ctx.io.env.ANTHROPIC_API_KEY);

  const { result, exitCode } = await auditServers(ctx, options);
  ctx.io.stdout(renderAuditReport(result, { format: ctx.global.format, top, chalk: ctx.chalk }));
  return { result, exitCode };
}

/** `mcp-smart adopt <client>`: writes mcp-smart.config.json from that client's servers; prints the switch and the way back. */
import { adoptClient, type AdoptResult } from '../app/adopt.js';
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { renderJson } from '../reporters/json.js';
import { parseClientFlag } from './parse-client.js';

export interface AdoptFlags {
  force?: boolean;
  dryRun?: boolean;
}

function renderText(r: AdoptResult): string {
  const lines: string[] = [];
  if (r.action === 'dry-run')
    lines.push(`Would write ${r.file} (--dry-run: nothing written):`, '', r.text.trimEnd(), '');
  else if (r.action === 'unchanged') lines.push(`${r.file} already holds these servers: unchanged.`);
  else lines.push(`Wrote ${r.file}.`);
  lines.push(`Adopted ${r.servers.length} server${r.servers.length === 1 ? '' : 's'}:`);
  for (const s of r.servers) {
    const filters = [
      s.includeTools ? `only ${s.includeTools.join(', ')}` : '',
      s.excludeTools ? `hiding ${s.excludeTools.join(', ')}` : '',
    ].filter(Boolean);
    lines.push(`  ${s.name} (${s.transport}, from ${s.source})${filters.length ? ` — ${filters.join('; ')}` : ''}`);
  }
  for (const s of r.skipped) lines.push(`  not adopted: ${s.name} (${s.source}): ${s.reason}`);
  if (r.variables.length > 0) {
    lines.push(
      '',
      'The client file held literal values; mcp-smart.config.json refers to variables instead. Set each to the whole value the client file has there (it is never printed or written):',
    );
    for (const v of r.variables) lines.push(`  ${v.variable}  (${v.server} ${v.key})`);
  }
  lines.push('', 'Switch:', r.switchText.trimEnd(), '', r.back);
  return `${lines.join('\n')}\n`;
}

export async function runAdoptCommand(
  ctx: CommandContext,
  args: string[],
  flags: AdoptFlags,
): Promise<CommandOutcome<AdoptResult>> {
  const client = parseClientFlag(args[0] ?? '', 'adopt <client>');
  const result = await adoptClient(ctx, { client, force: flags.force === true, dryRun: flags.dryRun === true });
  if (ctx.global.format === 'json') {
    const { text: _text, switchText, ...rest } = result;
    ctx.io.stdout(renderJson('adopt', { ...rest, switch: switchText }));
  } else ctx.io.stdout(renderText(result));
  return { result, exitCode: 0 };
}

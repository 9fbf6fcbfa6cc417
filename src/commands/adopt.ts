/**
 * `mcp-smart adopt <client>`: writes mcp-smart.config.json from that client's servers; prints the switch (which
 * turns those servers off in the client and starts mcp-smart instead) and the way back; `--apply` makes the switch,
 * `--undo` takes it back.
 */
import { adoptClient, type AdoptResult } from '../app/use-cases/adopt.js';
import { undoSwitch, type UndoFile } from '../app/use-cases/adopt-switch.js';
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { clientLabel } from '../core/config/clients.js';
import { SmartError } from '../process/errors.js';
import { renderJson } from '../reporters/json.js';
import { parseClientFlag } from './parse-client.js';

export interface AdoptFlags {
  force?: boolean;
  dryRun?: boolean;
  apply?: boolean;
  undo?: boolean;
  scopeFromUse?: boolean;
  store?: string;
}

function switchLines(r: AdoptResult): string[] {
  const sw = r.clientSwitch;
  if (!sw) return [];
  const label = clientLabel(r.client);
  const lines = sw.applied
    ? ['', `Switched: ${label} now starts mcp-smart instead of the adopted servers (a copy of each file was kept):`]
    : [
        '',
        `Switch: ${label} starts mcp-smart instead of the adopted servers. One command, which keeps a copy of each file it changes:`,
        `  ${sw.apply}`,
        "It changes, in the client's own terms (every other server and key stays as it is):",
      ];
  for (const f of sw.files) lines.push(`  ${f.file}: ${f.says.join('; ')}`);
  return lines;
}

function renderText(r: AdoptResult): string {
  const lines: string[] = [];
  if (r.action === 'switched' || r.action === 'changed') return `${r.switchText.trimEnd()}\n${r.back}\n`;
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
  for (const s of r.skipped) lines.push(`  not adopted, left as it is: ${s.name} (${s.source}): ${s.reason}`);
  if (r.scope) {
    const sc = r.scope;
    lines.push(
      '',
      `This project's scope, derived from use (${sc.store}, ${sc.project}): ${sc.ids.length} tool${sc.ids.length === 1 ? '' : 's'}, written as ${clientLabel(r.client)}'s own filter (${sc.key}) on the entry the switch adds; the client shows the model only these:`,
      `  ${sc.names.join(', ')}`,
    );
    if (sc.elsewhere.length > 0)
      lines.push(`  used here but on servers not adopted (not in the filter): ${sc.elsewhere.join(', ')}`);
  }
  if (r.variables.length > 0) {
    lines.push(
      '',
      "These values are secrets: mcp-smart.config.json refers to a variable instead (never the value). --apply gives each to the entry it adds in the client's own file, where your entry had it; by hand, set each to the value your entry had:",
    );
    for (const v of r.variables) lines.push(`  ${v.variable}  (${v.server} ${v.key})`);
  }
  lines.push(...switchLines(r));
  if (r.clientSwitch?.applied !== true)
    lines.push(
      '',
      'Or by hand (then turn the adopted servers off in the client yourself, or it starts them twice):',
      r.switchText.trimEnd(),
    );
  lines.push('', r.back);
  return `${lines.join('\n')}\n`;
}

const UNDO_WORDS: Record<UndoFile['result'], string> = {
  restored: 'put back as it was, byte for byte',
  'restored-kept': 'switch taken back; changed since the switch and kept as it is now',
  removed: 'removed (the switch had created it)',
  missing: 'missing now: nothing to put back',
  unchanged: 'already as it was',
};

async function runUndo(
  ctx: CommandContext,
  client: ReturnType<typeof parseClientFlag>,
): Promise<CommandOutcome<unknown>> {
  const { files } = await undoSwitch(ctx, client);
  if (ctx.global.format === 'json') ctx.io.stdout(renderJson('adopt', { client, action: 'undone', files }));
  else {
    const lines = [`Undid the switch of ${clientLabel(client)}:`];
    for (const f of files) {
      const words = f.target
        ? `kept as your link; ${f.target}, the file the switch had created where it points, removed`
        : UNDO_WORDS[f.result];
      lines.push(`  ${f.file}: ${words}${f.changedSince?.length ? ` (${f.changedSince.join(', ')})` : ''}`);
    }
    ctx.io.stdout(`${lines.join('\n')}\n`);
  }
  return { result: { client, files }, exitCode: 0 };
}

export async function runAdoptCommand(
  ctx: CommandContext,
  args: string[],
  flags: AdoptFlags,
): Promise<CommandOutcome<unknown>> {
  const client = parseClientFlag(args[0] ?? '', 'adopt <client>');
  if (flags.undo) {
    const other = (
      [
        ['--apply', flags.apply],
        ['--dry-run', flags.dryRun],
        ['--scope-from-use', flags.scopeFromUse],
      ] as const
    ).find(([, given]) => given === true)?.[0];
    // The value names the flag given with it (an empty one read as `--undo ""`, a value --undo never takes).
    if (other)
      throw new SmartError('BAD_FLAG', {
        flag: '--undo',
        value: `with ${other}`,
        hint: '--undo takes no --apply, --dry-run or --scope-from-use.',
      });
    return runUndo(ctx, client);
  }
  const result = await adoptClient(ctx, {
    client,
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    apply: flags.apply === true,
    scopeFromUse: flags.scopeFromUse === true,
    ...(flags.store !== undefined ? { store: flags.store } : {}),
  });
  if (ctx.global.format === 'json') {
    const { text: _text, switchText, ...rest } = result;
    ctx.io.stdout(renderJson('adopt', { ...rest, switch: switchText }));
  } else ctx.io.stdout(renderText(result));
  return { result, exitCode: 0 };
}

/** `store init|import|export|forget`: the team store's set-up, moves between a file and PostgreSQL, forgetting. */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { optionalString, parseChoiceFlag } from '../app/services/flags.js';
import {
  runStoreAdmin,
  type StoreAction,
  type StoreAdminOptions,
  type StoreAdminResult,
} from '../app/use-cases/store-admin.js';
import { SmartError } from '../process/errors.js';
import { renderJson } from '../reporters/json.js';
import { describeScopes } from '../reporters/scope.js';

const ACTIONS: readonly StoreAction[] = ['init', 'import', 'export', 'forget', 'scope'];

export async function runStoreCommand(
  ctx: CommandContext,
  args: string[],
  flags: Record<string, unknown>,
): Promise<CommandOutcome<StoreAdminResult>> {
  const { io } = ctx;
  const action = parseChoiceFlag('<action>', args[0] ?? '', ACTIONS);
  const options: StoreAdminOptions = { action, force: flags.force === true };
  const store = optionalString(flags.store);
  if (store) options.store = store;
  const tools = Array.isArray(flags.tool) ? (flags.tool as string[]) : [];
  const user = optionalString(flags.user);
  const project = optionalString(flags.project);
  refuseOtherActions(action, {
    '<file>': args[1],
    '--tool': tools.length > 0 ? tools.join(', ') : undefined,
    '--user': user,
    '--force': options.force ? `with store ${action}` : undefined,
    '--project': project,
  });
  if (action === 'import' || action === 'export') {
    const file = args[1];
    if (!file)
      throw new SmartError('BAD_FLAG', {
        flag: '<file>',
        value: '',
        hint: `store ${action} needs the usage store file: mcp-smart store ${action} usage.json --store postgres://…`,
      });
    options.file = file;
  }
  if (action === 'forget') {
    if (tools.length > 0 && user !== undefined)
      throw new SmartError('BAD_FLAG', {
        flag: '--user',
        value: user,
        hint: 'Forget tools (--tool) or a user (--user) in one run, not both.',
      });
    if (tools.length === 0 && user === undefined)
      throw new SmartError('BAD_FLAG', {
        flag: '--tool',
        value: '',
        hint: 'Name what to forget: the tool id(s) with --tool server.tool, or one user with --user <name>',
      });
    if (user) options.user = user;
    else options.tools = tools;
  }
  if (project !== undefined) options.project = project;
  const result = await runStoreAdmin(ctx, options);
  if (ctx.global.format === 'json') io.stdout(renderJson('store', result));
  else io.stdout(describe(result));
  return { result, exitCode: 0 };
}

/** The actions that read each flag; given to another, it would be ignored without a word (`store init team.json`). */
const READ_BY: Record<string, { actions: readonly StoreAction[]; usage: string }> = {
  '<file>': {
    actions: ['import', 'export'],
    usage: 'only store import and store export read a file; the store acted on is --store <file-or-url>',
  },
  '--tool': {
    actions: ['forget'],
    usage: 'only store forget takes --tool: mcp-smart store forget --tool <server.tool>',
  },
  '--user': { actions: ['forget'], usage: 'only store forget takes --user: mcp-smart store forget --user <name>' },
  '--force': { actions: ['export'], usage: 'only store export takes --force (to replace an existing file)' },
  '--project': { actions: ['scope'], usage: 'only store scope takes --project: mcp-smart store scope --project <dir>' },
};

function refuseOtherActions(action: StoreAction, given: Record<string, string | undefined>): void {
  for (const [flag, value] of Object.entries(given)) {
    const readBy = READ_BY[flag];
    if (value === undefined || !readBy || readBy.actions.includes(action)) continue;
    throw new SmartError('BAD_FLAG', { flag, value, hint: `store ${action} does not read it; ${readBy.usage}.` });
  }
}

function describe(r: StoreAdminResult): string {
  const held = `${r.tools} tools, ${r.intents} remembered intents, ${r.sessions} learned sessions`;
  switch (r.action) {
    case 'init':
      return `${r.createdDatabase ? 'Created the database; usage' : 'Usage'} store ${r.store} is ready (${r.kind}; holds ${held}).\n`;
    case 'import':
      return `Imported ${r.file} into ${r.store}: ${held}.\n`;
    case 'export':
      return `Exported ${r.store} to ${r.file}: ${held}.\n`;
    case 'scope':
      return describeScopes(r.scopes ?? [], r.here ?? '', r.store);
    case 'forget':
      return `Forgot ${r.removed ?? 0} ${r.user ? `tool entr${r.removed === 1 ? 'y' : 'ies'} of user ${r.user}` : 'tool(s)'} in ${r.store}; it now holds ${held}.\n`;
  }
}

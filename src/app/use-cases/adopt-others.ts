/**
 * One project has one mcp-smart.config.json, and every client switched to serve here (`adopt <client> --apply`) runs
 * serve on it: the servers each switch turned off in its client are served from that file. `adopt <other> --force`
 * replaces its servers with the other client's, so a switched client would keep its own servers turned off with
 * nothing serving them, silently. This says which recorded switches rely on the file, and which of their servers it
 * no longer holds (or would not hold), so adopt can warn before and after.
 */
import { CLIENT_IDS, clientLabel } from '../../core/config/clients.js';
import { isPlainObject } from '../../core/config/key-path.js';
import { parseConfigText } from '../../core/config/parse.js';
import { READ_AS, readFileBytes } from '../../process/read-file.js';
import type { ClientId } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { adoptLine } from './adopt-plan.js';
import { readState, type SwitchState } from './adopt-switch.js';

/** The servers a recorded switch turned off in its client, read from its edits (each names them). */
export function switchedOff(state: SwitchState): string[] {
  const names = state.files.flatMap((f) =>
    f.edits.flatMap((e) => {
      if (e.kind === 'list-add') return e.names;
      if (e.kind === 'toml-off') return [e.table];
      if (e.kind !== 'set') return [];
      // Cursor, VS Code, …: the entry removed; Cline and Roo: its "disabled" set to true.
      if (e.value === undefined) return [String(e.path.at(-1))];
      if (e.value === true && e.path.at(-1) === 'disabled') return [String(e.path.at(-2))];
      return [];
    }),
  );
  return [...new Set(names)].sort();
}

/** The server names mcp-smart.config.json holds, or undefined when it cannot be read as a config. */
export function servedNames(file: string): string[] | undefined {
  try {
    const bytes = readFileBytes(file, '/', READ_AS.config);
    if (bytes === undefined) return [];
    const doc = parseConfigText(file, bytes.toString('utf8').replace(/^\uFEFF/, ''));
    return isPlainObject(doc) ? namesIn(doc) : undefined;
  } catch {
    return undefined;
  }
}

/** The server names a parsed mcp-smart.config.json holds (`mcpServers`, else `servers`). */
export function namesIn(doc: Record<string, unknown>): string[] {
  const map = isPlainObject(doc.mcpServers) ? doc.mcpServers : isPlainObject(doc.servers) ? doc.servers : {};
  return Object.keys(map);
}

/** A recorded switch of another client here, and the servers of it a config with `names` would not serve. */
export interface LosingSwitch {
  client: ClientId;
  appliedAt: string;
  servers: string[];
}

/**
 * The other clients' switches in this project whose servers the config serves now (`held`) and would not once it
 * holds only `names`.
 */
export function switchesLosing(
  ctx: AppContext,
  client: ClientId,
  held: readonly string[],
  names: readonly string[],
): LosingSwitch[] {
  const out: LosingSwitch[] = [];
  for (const other of CLIENT_IDS) {
    if (other === client) continue;
    let state: SwitchState | undefined;
    try {
      state = readState(ctx, other);
    } catch {
      continue;
    }
    if (!state) continue;
    const servers = switchedOff(state).filter((n) => held.includes(n) && !names.includes(n));
    if (servers.length > 0) out.push({ client: other, appliedAt: state.appliedAt, servers });
  }
  return out;
}

/**
 * The warning for `adopt <client>` replacing (`done`) or about to replace the servers of `file` that other clients'
 * switches run: each client named with the servers it loses, and the way out.
 */
export function losingWarning(file: string, client: ClientId, losing: LosingSwitch[], done: boolean): string {
  const label = clientLabel(client);
  return losing
    .map((l) => {
      const other = clientLabel(l.client);
      const what = `${other}'s switch (adopt ${l.client} --apply, ${l.appliedAt}) turned off ${l.servers.join(', ')} in ${other} and serves them from ${file}`;
      const effect = done
        ? `that file now holds ${label}'s servers instead, so ${other} has them turned off and served by nothing`
        : `replacing its servers with ${label}'s (--force) would leave ${other} with them turned off and served by nothing`;
      const fix = done
        ? `To give them back to ${other}: ${adoptLine(l.client, '--undo')} (turns them back on there)`
        : `Take that switch back first (${adoptLine(l.client, '--undo')}), then adopt ${client}`;
      return `warning: ${what}; ${effect}. ${fix} (one project's mcp-smart.config.json holds one set of adopted servers).\n`;
    })
    .join('');
}

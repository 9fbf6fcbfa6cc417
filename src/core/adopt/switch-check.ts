/**
 * Whether a planned switch does in a client file what it says, checked before anything is written: a JSON edit's
 * path through a key the file gives twice would land in the earlier, dead copy (the client reads the last one);
 * a Codex TOML file is switched in memory and read back, and must hold exactly the adopted servers turned off and
 * the entry added — a server written in a form the line edits cannot change (or would break) is named instead of a
 * switch reported but not made. Pure.
 */
import type { JSONPath } from 'jsonc-parser';
import { parseConfigText } from '../config/parse.js';
import { formatKeyPath, isPlainObject } from '../config/key-path.js';
import { applyTomlEdits, sameJson, type SwitchEdit } from './switch-edit.js';
import { tomlServerForm } from './toml-server.js';

/** Why a file cannot be switched: the key (as in messages) and the reason with what to do. */
export interface SwitchProblem {
  key: string;
  reason: string;
}

/** The first key on an edit's path that the file gives more than once (`duplicateKeys`, as parse reports them). */
export function duplicateOnPath(
  edits: readonly SwitchEdit[],
  duplicateKeys: readonly string[],
): SwitchProblem | undefined {
  if (duplicateKeys.length === 0) return undefined;
  for (const e of edits) {
    if (e.kind !== 'set' && e.kind !== 'list-add') continue;
    const path: JSONPath = e.path;
    for (let n = 1; n <= path.length; n++) {
      const key = formatKeyPath(path.slice(0, n));
      if (duplicateKeys.includes(key))
        return {
          key,
          reason:
            'is given more than once in this file, and the client reads only the last one; --apply would edit ' +
            'the earlier copy and change nothing the client reads. Remove the earlier one and run --apply again. ' +
            'Nothing was written.',
        };
    }
  }
  return undefined;
}

const FORMS = { inline: ' (an inline table)', dotted: ' (dotted keys)', other: '' } as const;

const WHAT_TO_DO = (name: string): string =>
  `Write it as its own [mcp_servers.${name}] table and run --apply again (or turn it off yourself with ` +
  'enabled = false and add the entry adopt prints). Nothing was written.';

/** What the switch would fail to do in a Codex config.toml (`text` as read, byte-order mark and all). */
export function tomlSwitchProblem(file: string, text: string, edits: readonly SwitchEdit[]): SwitchProblem | undefined {
  const before = parseConfigText(file, text);
  let after: unknown;
  try {
    after = parseConfigText(file, applyTomlEdits(text, edits));
  } catch {
    after = undefined;
  }
  const servers = (doc: unknown): Record<string, unknown> =>
    isPlainObject(doc) && isPlainObject(doc.mcp_servers) ? doc.mcp_servers : {};
  const had = servers(before);
  // A second reading to change, not a JSON copy: TOML dates and times stay the values they are.
  const want = (parseConfigText(file, text) ?? {}) as Record<string, unknown>;
  const wanted = servers(want);
  for (const e of edits) {
    const entry = wanted[e.kind === 'toml-off' || e.kind === 'toml-add' ? e.table : ''];
    if (e.kind === 'toml-off' && isPlainObject(entry)) entry.enabled = false;
    if (e.kind === 'toml-add' && had[e.table] === undefined) wanted[e.table] = e.entry;
  }
  if (isPlainObject(want) && Object.keys(wanted).length > 0) want.mcp_servers = wanted;
  if (sameJson(after, want)) return undefined;
  const now = servers(after);
  for (const e of edits) {
    if (e.kind !== 'toml-off') continue;
    const entry = now[e.table];
    if (after !== undefined && isPlainObject(entry) && entry.enabled === false) continue;
    const form = tomlServerForm(text, e.table);
    const how =
      form === 'in-inline'
        ? 'is written inside one inline table (mcp_servers = { … }), which --apply cannot change without writing ' +
          'the whole table again'
        : `is written in a form --apply cannot turn off safely${FORMS[form]}`;
    return { key: formatKeyPath(['mcp_servers', e.table]), reason: `${how}. ${WHAT_TO_DO(e.table)}` };
  }
  const add = edits.find((e) => e.kind === 'toml-add');
  const name = add?.kind === 'toml-add' ? add.table : 'smart';
  return {
    key: formatKeyPath(['mcp_servers', name]),
    reason:
      `--apply cannot add the [mcp_servers.${name}] table to this file as its servers are written (mcp_servers as ` +
      'one inline table, or a server of that name written another way). Write each server as its own ' +
      '[mcp_servers.<name>] table and run --apply again. Nothing was written.',
  };
}

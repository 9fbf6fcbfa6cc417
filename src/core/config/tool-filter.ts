/** Tools a client hides from the model although the server lists them. Pure. */
import type { ServerDefinition, ServerSnapshot, ToolFilter } from '../../types.js';
import { dict, own } from '../dict.js';

/** Names of `tools` that `filter` hides: those outside a given allow list, and every one on the deny list. */
export function hiddenToolNames(filter: ToolFilter | undefined, tools: readonly string[]): string[] {
  if (!filter) return [];
  const include = filter.include ? new Set(filter.include) : undefined;
  const exclude = new Set(filter.exclude ?? []);
  return tools.filter((t) => exclude.has(t) || (include !== undefined && !include.has(t)));
}

/** Server name → the tools its client hides, for every connected server whose definition filters tools. */
export function hiddenToolsBySnapshot(
  snapshots: readonly ServerSnapshot[],
  definitions: readonly ServerDefinition[],
): Record<string, string[]> {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const out: Record<string, string[]> = dict();
  for (const s of snapshots) {
    const hidden = hiddenToolNames(
      byName.get(s.name)?.toolFilter,
      s.tools.map((t) => t.name),
    );
    if (hidden.length > 0) out[s.name] = hidden;
  }
  return out;
}

/** The snapshots as the client sends them to the model: hidden tools removed (the inputs are not changed). */
export function sentSnapshots(
  snapshots: readonly ServerSnapshot[],
  hidden: Readonly<Record<string, readonly string[]>>,
): ServerSnapshot[] {
  return snapshots.map((s) => {
    const names = own(hidden, s.name);
    if (!names || names.length === 0) return s;
    const drop = new Set(names);
    return { ...s, tools: s.tools.filter((t) => !drop.has(t.name)) };
  });
}

/** Only the hidden tools of each server (servers without hidden tools are left out). */
export function hiddenSnapshots(
  snapshots: readonly ServerSnapshot[],
  hidden: Readonly<Record<string, readonly string[]>>,
): ServerSnapshot[] {
  return snapshots.flatMap((s) => {
    const names = own(hidden, s.name);
    if (!names || names.length === 0) return [];
    const keep = new Set(names);
    return [{ ...s, tools: s.tools.filter((t) => keep.has(t.name)) }];
  });
}

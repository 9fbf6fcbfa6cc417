/** Usage store documents, read tolerantly: only what budget planning needs. */
import { dict, toDict } from '../dict.js';
import type { ToolUsage, UsageStats } from '../../types.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `tools` map of a usage store document (top level or under `stats`/`usage`); undefined when none. */
export function usageFromDocument(doc: unknown): UsageStats | undefined {
  if (!isObject(doc)) return undefined;
  const holder = isObject(doc.tools)
    ? doc
    : isObject(doc.stats)
      ? doc.stats
      : isObject(doc.usage)
        ? doc.usage
        : undefined;
  if (!holder || !isObject(holder.tools)) return undefined;
  const tools = dict<ToolUsage>();
  for (const [id, u] of Object.entries(holder.tools)) {
    if (!isObject(u)) continue;
    const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
    tools[id] = {
      success: num(u.success),
      failure: num(u.failure),
      lastUsed: num(u.lastUsed),
      categories: isObject(u.categories) ? toDict<number>(u.categories) : dict<number>(),
    };
  }
  return { tools };
}

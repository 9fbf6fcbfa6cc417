/** Paged list calls (tools, prompts, resources, templates) with a guard against cursors that never end. */
import { SmartError } from '../../process/errors.js';
import type { JsonObject } from '../types.js';
import { validateTools, type CheckedTools } from '../tool-validate.js';
import { isObject } from '../dict.js';

/** Sends one request and returns its raw result object (not reshaped by any schema). */
export type RequestFn = (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Default page limit: far above any real server, low enough to stop a runaway cursor quickly. */
export const DEFAULT_MAX_PAGES = 1000;

const shortCursor = (c: string): string => JSON.stringify(c.length > 40 ? `${c.slice(0, 40)}…` : c);

/**
 * One page. A stack overflow while the answer is read or validated (a schema nested thousands of levels deep, in
 * the SDK's parsing or ours) is this server's protocol failure with the remedy, not a crash of the whole run.
 */
async function requestPage(request: RequestFn, method: string, params: Record<string, unknown>) {
  try {
    return await request(method, params);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    throw new SmartError(
      'CONNECT_PROTOCOL',
      {
        phase: method,
        reason:
          "its answer is nested too deeply to read (the call stack overflowed); ask the server's maintainer to flatten its schemas",
      },
      { cause: e },
    );
  }
}

/** Follows nextCursor until it is absent; throws CONNECT_PAGINATION on a repeated cursor or past `maxPages`. */
/** A 2026-07-28 list result's own cache hint (SEP-2549), across its pages: the shortest TTL, private if any is. */
export interface ListCacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Folds one page's `ttlMs`/`cacheScope` into the hint so far; a page without them leaves it unknown. */
function foldHint(hint: ListCacheHint | undefined | null, page: Record<string, unknown>): ListCacheHint | null {
  const { ttlMs, cacheScope } = page;
  const valid =
    typeof ttlMs === 'number' &&
    Number.isSafeInteger(ttlMs) &&
    ttlMs >= 0 &&
    (cacheScope === 'public' || cacheScope === 'private');
  if (!valid || hint === null) return null;
  if (hint === undefined) return { ttlMs, cacheScope };
  return {
    ttlMs: Math.min(hint.ttlMs, ttlMs),
    cacheScope: hint.cacheScope === 'private' || cacheScope === 'private' ? 'private' : 'public',
  };
}

export async function listAllPages(
  request: RequestFn,
  method: string,
  key: string,
  maxPages: number,
  onHint?: (hint: ListCacheHint | undefined) => void,
): Promise<unknown[]> {
  let hint: ListCacheHint | undefined | null;
  const seen = new Set<string>();
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await requestPage(request, method, cursor === undefined ? {} : { cursor });
    const list = result[key];
    if (!Array.isArray(list)) {
      throw new SmartError('CONNECT_PROTOCOL', { phase: method, reason: `the result has no "${key}" array` });
    }
    items.push(...(list as unknown[]));
    hint = foldHint(hint, result);
    const next = result.nextCursor;
    if (next === undefined || next === null || next === '') {
      onHint?.(hint ?? undefined);
      return items;
    }
    if (typeof next !== 'string') {
      throw new SmartError('CONNECT_PROTOCOL', {
        phase: method,
        reason: `nextCursor is a ${typeof next}, not a string`,
      });
    }
    if (seen.has(next) || next === cursor) {
      throw new SmartError('CONNECT_PAGINATION', {
        method,
        reason: `cursor ${shortCursor(next)} came back again`,
        pages: page,
      });
    }
    if (page >= maxPages) {
      throw new SmartError('CONNECT_PAGINATION', {
        method,
        reason: 'still a next page',
        pages: page,
        limit: 'page',
      });
    }
    seen.add(next);
    cursor = next;
  }
}

export type { CheckedTools };

/** Keeps well-formed tool entries exactly as sent; describes the others (the one validator in core/tool-validate). */
export const checkToolEntries = (entries: unknown[]): CheckedTools => validateTools(entries);

/** Prompts, resources and templates: plain objects are kept as sent; anything else is a protocol error. */
export function checkObjectEntries(entries: unknown[], method: string): JsonObject[] {
  const bad = entries.findIndex((e) => !isObject(e));
  if (bad >= 0)
    throw new SmartError('CONNECT_PROTOCOL', { phase: method, reason: `entry #${bad + 1} is not an object` });
  return entries as JsonObject[];
}

/** The malformed-tools failure text: the first few problems and how many tools were kept. */
export function malformedToolsError(checked: CheckedTools): SmartError {
  const shown = checked.problems.slice(0, 5).join('; ');
  const more = checked.problems.length > 5 ? `; and ${checked.problems.length - 5} more` : '';
  return new SmartError('CONNECT_MALFORMED_TOOLS', {
    count: checked.problems.length,
    details: shown + more,
    kept: checked.tools.length,
  });
}

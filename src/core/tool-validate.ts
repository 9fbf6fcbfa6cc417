/**
 * The one check where tools enter mcp-smart (a server's tools/list, a snapshot file): well-formed tools are
 * kept exactly as sent, the rest are described. Everything after this point may assume string names and
 * descriptions and schemas shallow enough for recursive walks.
 */
import type { ToolSnapshot } from './types.js';
import { countOf, keptText } from '../process/count-text.js';
import { scanHeaderDeclarations } from './x-mcp-header.js';
import { isObject } from './dict.js';

/** Deeper than any real schema (the deepest published ones nest about 20 levels), shallow enough for every walk. */
export const MAX_SCHEMA_DEPTH = 200;

export interface CheckedTools {
  tools: ToolSnapshot[];
  /** One short description per malformed entry, e.g. `#2: no name`. */
  problems: string[];
}

const kind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'an object' : typeof v;

/** Nesting depth of a JSON value, with an explicit stack (never the call stack); stops counting past `limit`. */
export function jsonDepth(value: unknown, limit = MAX_SCHEMA_DEPTH): number {
  let max = 0;
  // Two parallel stacks (no tuple per value) and only objects pushed: this walks every snapshot's schemas.
  const values: object[] = [];
  const depths: number[] = [];
  if (typeof value === 'object' && value !== null) {
    values.push(value);
    depths.push(1);
  }
  while (values.length > 0) {
    const v = values.pop()!;
    const d = depths.pop()!;
    if (d > max) max = d;
    if (max > limit) return max;
    if (Array.isArray(v)) {
      for (const child of v as unknown[])
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(d + 1);
        }
    } else {
      for (const key in v) {
        const child = (v as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          values.push(child);
          depths.push(d + 1);
        }
      }
    }
  }
  return max;
}

export interface ValidateOptions {
  /** The entries are known to be nested at most MAX_SCHEMA_DEPTH deep (checked earlier): skip the depth walk. */
  shallow?: boolean;
}

const article = (v: unknown): string => {
  const k = kind(v);
  return k.startsWith('an ') || k === 'null' ? k : `a ${k}`;
};

const show = (name: string): string => JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);

/** Keeps well-formed tool entries exactly as sent; describes the others. */
export function validateTools(entries: readonly unknown[], options: ValidateOptions = {}): CheckedTools {
  const tools: ToolSnapshot[] = [];
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    const at = `#${i + 1}`;
    if (!isObject(entry)) return void problems.push(`${at}: not an object`);
    if (entry.name === undefined || entry.name === '') return void problems.push(`${at}: no name`);
    if (typeof entry.name !== 'string')
      return void problems.push(`${at}: name is ${article(entry.name)}, not a string`);
    const where = `${at} ${show(entry.name)}`;
    for (const field of ['title', 'description'] as const) {
      const v = entry[field];
      if (v !== undefined && typeof v !== 'string')
        return void problems.push(`${where}: ${field} is ${article(v)}, not a string`);
    }
    if (!isObject(entry.inputSchema)) {
      const what = entry.inputSchema === undefined ? 'missing' : article(entry.inputSchema);
      return void problems.push(`${where}: inputSchema is ${what}, not an object`);
    }
    for (const field of ['outputSchema', 'annotations'] as const) {
      const v = entry[field];
      if (v !== undefined && !isObject(v))
        return void problems.push(`${where}: ${field} is ${article(v)}, not an object`);
    }
    if (options.shallow !== true && jsonDepth(entry) > MAX_SCHEMA_DEPTH) {
      const depth = jsonDepth(entry, Infinity).toLocaleString('en-US');
      return void problems.push(
        `${where}: nested more than ${MAX_SCHEMA_DEPTH} levels deep (${depth}), so it is left out; ask its server's maintainer to flatten the schema`,
      );
    }
    // MCP 2026-07-28: a client excludes a tool whose x-mcp-header declarations break the rules (SEP-2243).
    const headers = scanHeaderDeclarations(entry.inputSchema as ToolSnapshot['inputSchema']);
    if (!headers.valid) return void problems.push(`${where}: ${headers.reason}, so it is left out`);
    tools.push(entry as ToolSnapshot);
  });
  return { tools, problems };
}

/** The note for a list with malformed entries: the first few problems and how many tools were kept. */
export function malformedToolsNote(checked: CheckedTools, where = 'tools/list'): string {
  const n = checked.problems.length;
  const shown = checked.problems.slice(0, 5).join('; ');
  const more = n > 5 ? `; and ${n - 5} more` : '';
  return `${where} returned ${countOf(n, 'malformed tool entry', 'malformed tool entries')} (${shown}${more}); ${keptText(checked.tools.length)}`;
}

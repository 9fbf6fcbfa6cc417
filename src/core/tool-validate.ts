/**
 * The one check where tools enter mcp-smart (a server's tools/list, a snapshot file): tools are kept exactly as
 * sent, the ones mcp-smart cannot read are described. A kept tool whose optional field has the wrong type (a title
 * that is no string, annotations or an outputSchema that is no object, an inputSchema that is no object) is read
 * through a copy without that field (a missing inputSchema counts as {"type":"object"}), with a remark; the entry as
 * sent stays with it for snapshots (toolAsSent). Everything after this point may assume string names, titles and
 * descriptions, object schemas, and schemas shallow enough for recursive walks.
 */
import type { ToolSnapshot } from './types.js';
import { countOf, keptText } from '../process/count-text.js';
import { scanHeaderDeclarations } from './x-mcp-header.js';
import { isObject } from './dict.js';

/** The entry as the server sent it, on a kept tool read through a cleaned copy (a symbol: never in JSON or hashes). */
const AS_SENT = Symbol('mcp-smart.toolAsSent');

/** A tool as the server sent it (what a snapshot holds); the tool itself when mcp-smart read it unchanged. */
export function toolAsSent(tool: ToolSnapshot): ToolSnapshot {
  return (tool as { [AS_SENT]?: ToolSnapshot })[AS_SENT] ?? tool;
}

/** Deeper than any real schema (the deepest published ones nest about 20 levels), shallow enough for every walk. */
export const MAX_SCHEMA_DEPTH = 200;

export interface CheckedTools {
  tools: ToolSnapshot[];
  /** One short description per malformed entry (left out), e.g. `#2: no name`. */
  problems: string[];
  /** One per kept tool with a field of the wrong type or a missing inputSchema, e.g. `#1 "t": inputSchema is missing`. */
  remarks: string[];
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

/** Keeps the tool entries mcp-smart can read exactly as sent; describes the others. */
export function validateTools(entries: readonly unknown[], options: ValidateOptions = {}): CheckedTools {
  const tools: ToolSnapshot[] = [];
  const problems: string[] = [];
  const remarks: string[] = [];
  entries.forEach((entry, i) => {
    const at = `#${i + 1}`;
    if (!isObject(entry)) return void problems.push(`${at}: not an object`);
    if (entry.name === undefined || entry.name === '') return void problems.push(`${at}: no name`);
    if (typeof entry.name !== 'string')
      return void problems.push(`${at}: name is ${article(entry.name)}, not a string`);
    const where = `${at} ${show(entry.name)}`;
    if (entry.description !== undefined && typeof entry.description !== 'string')
      return void problems.push(`${where}: description is ${article(entry.description)}, not a string`);
    if (options.shallow !== true && jsonDepth(entry) > MAX_SCHEMA_DEPTH) {
      const depth = jsonDepth(entry, Infinity).toLocaleString('en-US');
      return void problems.push(
        `${where}: nested more than ${MAX_SCHEMA_DEPTH} levels deep (${depth}), so it is left out; ask its server's maintainer to flatten the schema`,
      );
    }
    const wrong = wrongFields(entry);
    const read = wrong.length === 0 ? entry : withoutFields(entry, wrong);
    const said: string[] = [];
    if (entry.inputSchema === undefined || wrong.includes('inputSchema'))
      said.push(
        `inputSchema is ${entry.inputSchema === undefined ? 'missing' : article(entry.inputSchema)} (counted as {"type":"object"})`,
      );
    const ignored = wrong.filter((f) => f !== 'inputSchema').map((f) => `${f} is ${article(entry[f])}`);
    if (ignored.length > 0) said.push(`${ignored.join(', ')} (ignored)`);
    if (said.length > 0) remarks.push(`${where}: ${said.join('; ')}`);
    // MCP 2026-07-28: a client excludes a tool whose x-mcp-header declarations break the rules (SEP-2243).
    const headers = scanHeaderDeclarations(read.inputSchema as ToolSnapshot['inputSchema']);
    if (!headers.valid) return void problems.push(`${where}: ${headers.reason}, so it is left out`);
    tools.push(read as ToolSnapshot);
  });
  return { tools, problems, remarks };
}

const OPTIONAL_OBJECTS = ['inputSchema', 'outputSchema', 'annotations'] as const;

/** The fields of an entry present with the wrong type: they are left out of the copy mcp-smart reads. */
function wrongFields(entry: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (entry.title !== undefined && typeof entry.title !== 'string') out.push('title');
  for (const field of OPTIONAL_OBJECTS) if (entry[field] !== undefined && !isObject(entry[field])) out.push(field);
  return out;
}

function withoutFields(entry: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...entry };
  for (const f of fields) delete copy[f];
  Object.defineProperty(copy, AS_SENT, { value: entry, enumerable: true });
  return copy;
}

const REMARKS_NOTE = 'with a missing inputSchema or a field of the wrong type, kept and counted';

/**
 * The notes for a list with malformed entries or kept tools with remarks: the first few of each and how many tools
 * were kept. `verb` says how the list came: "returned" (a server's answer) or "holds" (a file). A list read back from
 * a file whose notes already remark on its tools (`existing`, written by `dump`) gets no second remark.
 */
export function malformedToolsNotes(
  checked: CheckedTools,
  where = 'tools/list',
  verb = 'returned',
  existing: readonly string[] = [],
): string[] {
  const notes: string[] = [];
  const n = checked.problems.length;
  if (n > 0)
    notes.push(
      `${where} ${verb} ${countOf(n, 'malformed tool entry', 'malformed tool entries')} (${firstFew(checked.problems)}); ${keptText(checked.tools.length)}`,
    );
  const r = checked.remarks.length;
  if (r > 0 && !existing.some((note) => note.includes(REMARKS_NOTE)))
    notes.push(
      `${where} ${verb} ${countOf(r, 'tool')} ${REMARKS_NOTE} (${firstFew(checked.remarks)}); clients built on the MCP TypeScript SDK reject such a list whole`,
    );
  return notes;
}

function firstFew(items: readonly string[]): string {
  const more = items.length > 5 ? `; and ${items.length - 5} more` : '';
  return items.slice(0, 5).join('; ') + more;
}

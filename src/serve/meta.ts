/** The meta-tools' answers: find, describe, list, and resolving the `name` and `arguments` of a call. */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { condenseTool, firstSentence } from '../core/condense/index.js';
import { SmartError } from '../process/errors.js';
import type { ToolSnapshot } from '../core/types.js';
import type { CatalogEntry, ServedView } from './served-view.js';
import type { FindCandidate } from './find-budget.js';
import { knownNames } from '../core/config/key-path.js';
import { shownValue } from './find-args.js';
import { MAX_ARGUMENT_DEPTH, nestedDeeperThan } from '../core/wire/nesting.js';

/** A meta-tool's text answer (the model reads JSON well; one compact line per result keeps it short). */
export function textResult(
  value: unknown,
  isError = false,
): { content: { type: 'text'; text: string }[]; isError?: boolean } {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

export const summaryOf = (tool: ToolSnapshot): string =>
  typeof tool.description === 'string' ? firstSentence(tool.description) : '';

export const isReadOnly = (tool: ToolSnapshot): boolean =>
  (tool.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint === true;

/**
 * One find_tool result: the id, one line, where it stands, and apart from them the compact input schema (which the
 * answer's token budget may leave out: find-budget.ts). The candidate is kept per catalogue entry while its served
 * name and availability stay the same, with the lines the answers made of it and their counts.
 */
export function findCandidate(entry: CatalogEntry, view: ServedView, unavailable: string | undefined): FindCandidate {
  const served = view.servedNameOf.get(entry.id);
  const was = keptCandidates.get(entry);
  if (was && was.tool === entry.tool && was.served === served && was.unavailable === unavailable) return was.candidate;
  const { summary, schema, schemaJson } = condensedOf(entry.tool);
  const brief: Record<string, unknown> = { id: entry.id, summary };
  if (isReadOnly(entry.tool)) brief.readOnly = true;
  if (served) brief.tool = served;
  if (unavailable) brief.unavailable = unavailable;
  const kept = { text: [], cost: [] };
  const candidate: FindCandidate = schema ? { brief, inputSchema: schema, schemaJson, kept } : { brief, kept };
  keptCandidates.set(entry, { tool: entry.tool, served, unavailable, candidate });
  return candidate;
}

/** The find_tool candidate last made of each catalogue entry (shared: never mutated but for its kept lines). */
const keptCandidates = new WeakMap<
  CatalogEntry,
  { tool: ToolSnapshot; served: string | undefined; unavailable: string | undefined; candidate: FindCandidate }
>();

/**
 * A tool's one-line summary and compact input schema, kept per tool definition (a list change brings new objects):
 * condensing them was most of a find_tool answer's time after the ranking. The schema is shared: never mutated.
 */
interface Condensed {
  summary: string;
  schema: unknown;
  /** The schema as JSON, as the answer's line holds it. */
  schemaJson: string | undefined;
}
const condensed = new WeakMap<ToolSnapshot, Condensed>();
function condensedOf(tool: ToolSnapshot): Condensed {
  let c = condensed.get(tool);
  if (!c) {
    const schema = condenseTool(tool, 'compact').inputSchema;
    c = { summary: summaryOf(tool), schema, schemaJson: schema ? JSON.stringify(schema) : undefined };
    condensed.set(tool, c);
  }
  return c;
}

/** describe_tool: the tool exactly as its server defines it, with its id and served name. */
export function describeEntry(entry: CatalogEntry, view: ServedView): Record<string, unknown> {
  const { name: _name, ...rest } = entry.tool;
  const out: Record<string, unknown> = { id: entry.id };
  const served = view.servedNameOf.get(entry.id);
  if (served) out.tool = served;
  return { ...out, ...rest };
}

/** list_tools: one line per tool (`unstarted`: the servers not started yet, known all the same). */
export function listEntries(
  view: ServedView,
  server: string | undefined,
  unstarted: readonly { server: string }[] = [],
  held?: ReadonlyMap<string, string>,
): string {
  const lines: string[] = [];
  for (const e of view.entries.values()) {
    if (server !== undefined && e.server !== server) continue;
    const summary = summaryOf(e.tool);
    lines.push(summary ? `${e.id} — ${summary}` : e.id);
  }
  if (server !== undefined && lines.length === 0) refuseUnknownServer(view, server, unstarted, held);
  return lines.join('\n');
}

/**
 * The `server` of find_tool or list_tools must be one whose tools the view serves, or one that has not started yet
 * (`unstarted`: the answer names it and why); else UNKNOWN_SERVER naming the others (the name shown cut to 40).
 */
export function refuseUnknownServer(
  view: ServedView,
  server: string,
  unstarted: readonly { server: string }[],
  held?: ReadonlyMap<string, string>,
): void {
  const servers = new Set([...view.entries.values()].map((e) => e.server));
  for (const u of unstarted) servers.add(u.server);
  if (servers.has(server)) return;
  // Found but not started (pending approval, switched off): said so, with why.
  const why = held?.get(server);
  if (why) throw new SmartError('SERVE_SERVER_UNAVAILABLE', { server, reason: why });
  const name = shownValue(server).replace(/^"|"$/g, '');
  throw new SmartError('UNKNOWN_SERVER', { name, ...knownNames(name, servers) });
}

/**
 * The entry a `name` means: an id "server.tool", a served name, or a tool name only one server has. `notRunning`: the
 * refusal for an id whose server is not running (why it is not), else it is an unknown tool.
 */
export function resolveTool(
  view: ServedView,
  name: unknown,
  notRunning?: (name: string) => SmartError | undefined,
): CatalogEntry {
  if (typeof name !== 'string' || name === '')
    throw new SmartError('SERVE_UNKNOWN_TOOL', {
      name: typeof name === 'string' || name === undefined || name === null ? '' : JSON.stringify(name),
      hint: 'Pass "name": a tool id "<server>.<tool>" from find_tool or list_tools.',
    });
  const byId = view.entries.get(name);
  if (byId) return byId;
  const served = view.byName.get(name)?.entry;
  if (served) return served;
  const bare = [...view.entries.values()].filter((e) => e.tool.name === name);
  if (bare.length === 1) return bare[0]!;
  refuseHidden(view, name);
  const down = bare.length === 0 ? notRunning?.(name) : undefined;
  if (down) throw down;
  const hint =
    bare.length > 1
      ? `Several servers have it: ${bare.map((e) => e.id).join(', ')}; pass one of these ids.`
      : 'Use find_tool {"intent": "..."} to search, or list_tools for every id.';
  throw new SmartError('SERVE_UNKNOWN_TOOL', { name, hint });
}

/** A name that means a hidden tool (an id, or a tool name only hidden tools have) is refused, saying what hid it. */
export function refuseHidden(view: ServedView, name: string): void {
  const e = hiddenError(view, name);
  if (e) throw e;
}

/** The refusal for a name that means a hidden tool, or undefined. */
export function hiddenError(view: ServedView, name: string): SmartError | undefined {
  const hidden = view.hidden.get(name) ?? [...view.hidden.values()].find((h) => h.tool === name);
  return hidden
    ? new SmartError('SERVE_TOOL_HIDDEN', { server: hidden.server, tool: hidden.tool, where: hidden.by.where })
    : undefined;
}

/** `arguments` as an object: absent → {}, a JSON string is parsed; anything else is an error naming it. */
export function argumentsObject(id: string, value: unknown): Record<string, unknown> {
  let v = value;
  if (v === undefined || v === null) return {};
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v === '' ? '{}' : v);
    } catch {
      throw new SmartError('SERVE_BAD_ARGUMENTS', { name: id, problems: '"arguments" is a string that is not JSON' });
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new SmartError('SERVE_BAD_ARGUMENTS', {
      name: id,
      problems: `"arguments" must be an object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`,
    });
  checkArgumentDepth(id, v);
  return v as Record<string, unknown>;
}

/** Refuses arguments nested deeper than MAX_ARGUMENT_DEPTH (call_tool's and a forwarded call's alike). */
export function checkArgumentDepth(id: string, args: unknown, hint?: string): void {
  if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH))
    throw new SmartError('SERVE_BAD_ARGUMENTS', {
      name: id,
      problems: `"arguments" are nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
      ...(hint === undefined ? {} : { hint }),
    });
}

/** Validates arguments against each tool's real input schema (the SDK's Ajv, all errors listed). */
export class ArgumentValidator {
  /** Loaded on the first call: Ajv and its formats take a while to import, and a start answers from cache. */
  private ajv?: Promise<jsonSchemaValidator>;
  private readonly cache = new Map<string, JsonSchemaValidator<unknown> | null>();

  /** Throws SERVE_BAD_ARGUMENTS listing every problem; a schema Ajv cannot compile is left to the server. */
  async check(entry: CatalogEntry, args: Record<string, unknown>): Promise<void> {
    let validate = this.cache.get(entry.id);
    if (validate === undefined) {
      this.ajv ??= import('@modelcontextprotocol/server/validators/ajv').then((m) => new m.AjvJsonSchemaValidator());
      const ajv = await this.ajv;
      try {
        validate = ajv.getValidator(entry.tool.inputSchema ?? { type: 'object' });
      } catch {
        validate = null;
      }
      this.cache.set(entry.id, validate);
    }
    if (!validate) return;
    const r = validate(args);
    if (!r.valid)
      throw new SmartError('SERVE_BAD_ARGUMENTS', {
        name: entry.id,
        problems: (r.errorMessage ?? 'invalid').replace(/\bdata\b/g, 'arguments'),
      });
  }
}

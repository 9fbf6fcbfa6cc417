/** Audit findings: stable codes and severities for what makes a tool context costly or fragile. */
import { hasKeyword } from '../condense/index.js';
import type { JsonObject, JsonValue, ServerSnapshot, ToolSnapshot } from '../types.js';
import { isObject as isObjectValue } from '../dict.js';

export type Severity = 'error' | 'warning' | 'info';
export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];

export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** Server name; `*` for findings about the whole setup (or a whole client). */
  server: string;
  /** The client whose servers the finding is about, when the audit looked at each client apart. */
  client?: string;
  tool?: string;
  message: string;
  /** The measured figure and the limit it broke, when there is one. */
  value?: number;
  limit?: number;
}

/** Every finding code with its severity. Codes are public: never rename one. */
export const FINDING_SEVERITY = {
  SERVER_FAILED: 'error',
  /** A server of the committed baseline this run did not reach (failed, held for approval, shadowed). */
  SERVER_MISSING: 'error',
  TOOL_NAME_INVALID: 'error',
  INPUT_SCHEMA_MISSING: 'error',
  TOOL_NAME_PREFIXED_TOO_LONG: 'warning',
  DUPLICATE_TOOL_NAME: 'warning',
  DUPLICATE_TOOL_SIMILAR: 'warning',
  TOO_MANY_TOOLS: 'warning',
  CLIENT_TOOL_LIMIT: 'warning',
  DESCRIPTION_MISSING: 'warning',
  DESCRIPTION_TOO_LONG: 'warning',
  INSTRUCTIONS_TOO_LONG: 'warning',
  SCHEMA_DEEP_NESTING: 'warning',
  ENUM_HUGE: 'warning',
  PARAM_DESCRIPTION_MISSING: 'info',
  SCHEMA_REF: 'info',
} as const satisfies Record<string, Severity>;
export type FindingCode = keyof typeof FINDING_SEVERITY;

export const AUDIT_LIMITS = {
  /** Tool names accepted by the major model APIs. */
  toolNamePattern: /^[a-zA-Z0-9_-]{1,64}$/,
  /** Claude Code names MCP tools `mcp__<server>__<tool>`; the API limit applies to that name. */
  prefixedNameMax: 64,
  /** Selection accuracy drops beyond 30–50 tools in one context. */
  maxTools: 40,
  descriptionTokens: 400,
  /** Levels of `properties`/`items` below the root. */
  nestingDepth: 4,
  enumValues: 50,
  /**
   * Server instructions go into every request of a client that shows them; past this many characters (about
   * 2,000 tokens) audit warns, and `serve` forwards only this much of each server's text.
   */
  instructionsChars: 8_000,
} as const;

/** A server's instructions cut to AUDIT_LIMITS.instructionsChars, with a note saying so; unchanged when short. */
export function boundedInstructions(text: string): string {
  const max = AUDIT_LIMITS.instructionsChars;
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… cut by mcp-smart: ${text.length.toLocaleString('en-US')} characters in all; \`mcp-smart audit\` reports it]`;
}

export const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** True when the finding is at or above `threshold` (error > warning > info). */
export function atOrAbove(severity: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[severity] <= SEVERITY_RANK[threshold];
}

const isObject: (v: unknown) => v is JsonObject = isObjectValue;

/** Levels of properties/items nesting (combinators do not add a level; $defs are not followed). */
export function nestingDepth(schema: JsonValue | undefined, guard = 0): number {
  if (!isObject(schema) || guard > 64) return 0;
  let depth = 0;
  if (isObject(schema.properties))
    for (const v of Object.values(schema.properties)) depth = Math.max(depth, 1 + nestingDepth(v, guard + 1));
  if (isObject(schema.additionalProperties))
    depth = Math.max(depth, 1 + nestingDepth(schema.additionalProperties, guard + 1));
  const items = schema.items;
  for (const it of Array.isArray(items) ? items : items === undefined ? [] : [items])
    depth = Math.max(depth, 1 + nestingDepth(it, guard + 1));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const b = schema[k];
    if (Array.isArray(b)) for (const x of b) depth = Math.max(depth, nestingDepth(x, guard + 1));
  }
  return depth;
}

function largestEnum(schema: JsonValue | undefined): number {
  let max = 0;
  const walk = (v: JsonValue | undefined): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) {
      if (Array.isArray(v.enum)) max = Math.max(max, v.enum.length);
      for (const [k, x] of Object.entries(v))
        if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'examples') walk(x);
    }
  };
  walk(schema);
  return max;
}

function paramsWithoutDescription(schema: JsonObject | undefined): string[] {
  if (!schema || !isObject(schema.properties)) return [];
  return Object.entries(schema.properties)
    .filter(([, v]) => !isObject(v) || typeof v.description !== 'string' || v.description.trim() === '')
    .map(([k]) => k);
}

export interface FindingInput {
  servers: readonly ServerSnapshot[];
  /** Tokens of a tool's description alone. */
  descriptionTokens: (tool: ToolSnapshot) => number;
  /** Duplicates and the tool count are checked per client (clientFindings), not across the whole setup. */
  perClient?: boolean;
  /** A server's tool-level findings from an earlier run on the same tools (the audit cache); else computed. */
  known?: (server: ServerSnapshot) => readonly Finding[] | undefined;
}

/** The findings about each tool of one server (name, description, schema): they depend on that server alone. */
export function serverToolFindings(server: ServerSnapshot, input: Pick<FindingInput, 'descriptionTokens'>): Finding[] {
  const out = server.tools.flatMap((t) => toolFindings(server, t, input as FindingInput));
  // A name listed twice by one server: MCP wants names unique within a server, and each copy is sent and counted.
  const listed = new Map<string, number>();
  for (const t of server.tools) listed.set(t.name, (listed.get(t.name) ?? 0) + 1);
  for (const [name, times] of listed)
    if (times > 1)
      out.push({
        code: 'DUPLICATE_TOOL_NAME',
        severity: FINDING_SEVERITY.DUPLICATE_TOOL_NAME,
        server: server.name,
        tool: name,
        message: `Tool "${name}" is listed ${times} times by ${server.name}: names must be unique within a server; a client may refuse the list or call either.`,
        value: times,
      });
  return out;
}

function toolFindings(server: ServerSnapshot, tool: ToolSnapshot, input: FindingInput): Finding[] {
  const out: Finding[] = [];
  const add = (code: FindingCode, message: string, extra: Partial<Finding> = {}): void => {
    out.push({ code, severity: FINDING_SEVERITY[code], server: server.name, tool: tool.name, message, ...extra });
  };
  if (!AUDIT_LIMITS.toolNamePattern.test(tool.name))
    add(
      'TOOL_NAME_INVALID',
      `Tool name "${tool.name}" does not match ^[a-zA-Z0-9_-]{1,64}$; some model APIs reject it.`,
    );
  const prefixed = `mcp__${server.name}__${tool.name}`;
  if (prefixed.length > AUDIT_LIMITS.prefixedNameMax) {
    add(
      'TOOL_NAME_PREFIXED_TOO_LONG',
      `"${prefixed}" is ${prefixed.length} characters; clients that prefix MCP tool names exceed the 64-character limit.`,
      {
        value: prefixed.length,
        limit: AUDIT_LIMITS.prefixedNameMax,
      },
    );
  }
  if (typeof tool.description !== 'string' || tool.description.trim() === '')
    add('DESCRIPTION_MISSING', 'No description: the model has only the name to go on.');
  else {
    const n = input.descriptionTokens(tool);
    if (n > AUDIT_LIMITS.descriptionTokens)
      add('DESCRIPTION_TOO_LONG', `Description is ${n} tokens (limit ${AUDIT_LIMITS.descriptionTokens}).`, {
        value: n,
        limit: AUDIT_LIMITS.descriptionTokens,
      });
  }
  const schema = tool.inputSchema;
  if (!isObject(schema)) {
    add('INPUT_SCHEMA_MISSING', 'No inputSchema: MCP requires one and model APIs need it.');
    return out;
  }
  const undocumented = paramsWithoutDescription(schema);
  if (undocumented.length > 0)
    add('PARAM_DESCRIPTION_MISSING', `Parameters without description: ${undocumented.join(', ')}.`, {
      value: undocumented.length,
    });
  const depth = nestingDepth(schema);
  if (depth > AUDIT_LIMITS.nestingDepth)
    add('SCHEMA_DEEP_NESTING', `Input schema nests ${depth} levels deep (limit ${AUDIT_LIMITS.nestingDepth}).`, {
      value: depth,
      limit: AUDIT_LIMITS.nestingDepth,
    });
  const enumSize = largestEnum(schema);
  if (enumSize > AUDIT_LIMITS.enumValues)
    add('ENUM_HUGE', `An enum lists ${enumSize} values (limit ${AUDIT_LIMITS.enumValues}).`, {
      value: enumSize,
      limit: AUDIT_LIMITS.enumValues,
    });
  if (hasKeyword(schema, ['$ref', '$defs', 'definitions', '$dynamicRef']))
    add('SCHEMA_REF', 'Input schema uses $ref/$defs, which some clients do not resolve.');
  return out;
}

/** All findings for a setup, sorted by severity, code, server, tool. */
export function auditFindings(input: FindingInput): Finding[] {
  const out: Finding[] = [];
  const ok = input.servers.filter((s) => s.status === 'ok');
  for (const s of input.servers) {
    if (s.status === 'error')
      out.push({
        code: 'SERVER_FAILED',
        severity: FINDING_SEVERITY.SERVER_FAILED,
        server: s.name,
        message: `Server failed: ${s.error ?? 'unknown error'}`,
      });
  }
  for (const s of ok) out.push(...(input.known?.(s) ?? serverToolFindings(s, input)));
  for (const s of ok) {
    const length = s.instructions?.length ?? 0;
    if (length > AUDIT_LIMITS.instructionsChars)
      out.push({
        code: 'INSTRUCTIONS_TOO_LONG',
        severity: FINDING_SEVERITY.INSTRUCTIONS_TOO_LONG,
        server: s.name,
        message: `Server instructions are ${length.toLocaleString('en-US')} characters (limit ${AUDIT_LIMITS.instructionsChars.toLocaleString('en-US')}); clients send them with every request, and serve forwards only the first ${AUDIT_LIMITS.instructionsChars.toLocaleString('en-US')}.`,
        value: length,
        limit: AUDIT_LIMITS.instructionsChars,
      });
  }
  if (input.perClient === true) return sortFindings(out);
  const byName = new Map<string, string[]>();
  for (const s of ok) for (const t of s.tools) byName.set(t.name, [...(byName.get(t.name) ?? []), s.name]);
  for (const [name, servers] of byName) {
    const distinct = [...new Set(servers)];
    if (distinct.length > 1) {
      out.push({
        code: 'DUPLICATE_TOOL_NAME',
        severity: FINDING_SEVERITY.DUPLICATE_TOOL_NAME,
        server: distinct[0] as string,
        tool: name,
        message: `Tool "${name}" is offered by ${distinct.length} servers: ${distinct.join(', ')}.`,
        value: distinct.length,
      });
    }
  }
  const total = ok.reduce((n, s) => n + s.tools.length, 0);
  if (total > AUDIT_LIMITS.maxTools) {
    out.push({
      code: 'TOO_MANY_TOOLS',
      severity: FINDING_SEVERITY.TOO_MANY_TOOLS,
      server: '*',
      message: `${total} tools in one setup (limit ${AUDIT_LIMITS.maxTools}); selection accuracy drops beyond 30–50 tools.`,
      value: total,
      limit: AUDIT_LIMITS.maxTools,
    });
  }
  return sortFindings(out);
}

/** Findings by severity, code, server, tool (then client), in place. */
export function sortFindings(out: Finding[]): Finding[] {
  const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      cmp(a.code, b.code) ||
      cmp(a.server, b.server) ||
      cmp(a.tool ?? '', b.tool ?? '') ||
      cmp(a.client ?? '', b.client ?? ''),
  );
}

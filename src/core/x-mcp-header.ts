/**
 * SEP-2243 `x-mcp-header` declarations in a tool's inputSchema (MCP 2026-07-28, Streamable HTTP "Schema
 * Extension"): a property reached from the root through `properties` alone may name an HTTP header its value is
 * also sent in (`Mcp-Param-<name>`). The rules a client checks before it uses a tool, the same as the SDK v2's:
 * a non-empty RFC 9110 token, on a string, integer or boolean property, unique regardless of case, and nowhere
 * else in the schema (not under items, combinators, conditionals, definitions). A tool that breaks one is invalid
 * and clients exclude it.
 */
import type { JsonObject, JsonValue } from './types.js';
import { eachSubschema } from './schema-keywords.js';
import { isObject as isObjectValue } from './dict.js';

export const X_MCP_HEADER = 'x-mcp-header';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PERMITTED_TYPES = new Set(['string', 'integer', 'boolean']);

export interface HeaderDeclaration {
  /** The property names from the root to the declaring property. */
  path: string[];
  header: string;
}

export type HeaderScan = { valid: true; declarations: HeaderDeclaration[] } | { valid: false; reason: string };

const isObject: (v: unknown) => v is JsonObject = isObjectValue;
const where = (path: string[]): string => (path.length === 0 ? '<root>' : path.join('.'));

/**
 * Whether any object in the value has an `x-mcp-header` key: a walk that allocates nothing per node, so that the
 * schemas of a large catalogue (almost none of which declare headers) skip the scan below, which keeps a path per node.
 */
function mentionsHeader(value: JsonValue | undefined): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const child of v) if (typeof child === 'object' && child !== null) stack.push(child);
      continue;
    }
    if (X_MCP_HEADER in v) return true;
    for (const key in v) {
      const child = (v as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) stack.push(child);
    }
  }
  return false;
}

/** Every declaration of a schema, or the first rule it breaks. */
export function scanHeaderDeclarations(schema: JsonValue | undefined): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  if (!mentionsHeader(schema)) return { valid: true, declarations };
  const seen = new Map<string, string>();
  // An explicit stack: schemas come from servers, and the walk must not recurse on their depth.
  const stack: { node: JsonValue; path: string[]; reachable: boolean }[] = [
    { node: schema ?? null, path: [], reachable: true },
  ];
  while (stack.length > 0) {
    const { node, path, reachable } = stack.pop()!;
    if (!isObject(node)) continue;
    if (X_MCP_HEADER in node) {
      const raw = node[X_MCP_HEADER];
      if (!reachable || path.length === 0)
        return { valid: false, reason: `${where(path)}: x-mcp-header outside a chain of properties` };
      if (typeof raw !== 'string' || raw === '')
        return { valid: false, reason: `${where(path)}: x-mcp-header must be a non-empty string` };
      if (!TOKEN.test(raw))
        return { valid: false, reason: `${where(path)}: x-mcp-header "${raw}" is not an HTTP header name` };
      const type = typeof node.type === 'string' ? node.type : '<none>';
      if (!PERMITTED_TYPES.has(type))
        return {
          valid: false,
          reason: `${where(path)}: x-mcp-header on a ${type} property (string, integer, boolean)`,
        };
      const prior = seen.get(raw.toLowerCase());
      if (prior !== undefined)
        return { valid: false, reason: `x-mcp-header "${raw}" is declared twice (also as "${prior}")` };
      seen.set(raw.toLowerCase(), raw);
      declarations.push({ path, header: raw });
    }
    // Only `properties` continues a chain; below any other subschema keyword a declaration is out of reach.
    eachSubschema(node, (sub, keyword, name) => {
      const chain = keyword === 'properties' && name !== undefined;
      stack.push({ node: sub, path: [...path, chain ? name : `<${keyword}>`], reachable: reachable && chain });
    });
  }
  declarations.sort((a, b) => where(a.path).localeCompare(where(b.path)));
  return { valid: true, declarations };
}

/**
 * The smallest schema that still carries every declaration: `{type: "object"}` with, along each declaration's
 * chain of properties, the property's type and its `x-mcp-header` (for the levels that otherwise send no schema,
 * so that a gateway in front of serve still sees which arguments travel as headers). Undefined when there is none.
 */
export function headerOnlySchema(schema: JsonObject | undefined): JsonObject | undefined {
  const scan = scanHeaderDeclarations(schema);
  if (!scan.valid || scan.declarations.length === 0) return undefined;
  const out: JsonObject = { type: 'object' };
  for (const { path, header } of scan.declarations) {
    let source: JsonValue | undefined = schema;
    let target = out;
    path.forEach((key, i) => {
      source = isObject(source) && isObject(source.properties) ? source.properties[key] : undefined;
      const props = (target.properties = isObject(target.properties) ? target.properties : {});
      if (i === path.length - 1) {
        props[key] = { type: (isObject(source) ? source.type : undefined) ?? 'string', [X_MCP_HEADER]: header };
      } else {
        target = props[key] = isObject(props[key]) ? props[key] : { type: 'object' };
      }
    });
  }
  return out;
}

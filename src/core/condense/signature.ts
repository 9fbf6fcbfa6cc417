/** One-line argument signatures for the minimal level: `read_file(path: string, head?: number)`. */
import type { JsonObject, JsonValue, ToolSnapshot } from '../types.js';
import { isObject } from './schema-walk.js';

const MAX_ENUM_SHOWN = 4;
/** `$ref` hops followed for one type: enough for a definition that points at another, never a loop. */
const MAX_REF_HOPS = 4;

function typeText(schema: JsonValue | undefined, root: JsonObject, depth = 0, hops = 0): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema.$ref === 'string' && hops < MAX_REF_HOPS) {
    const target = resolveLocalRef(root, schema.$ref);
    if (target !== undefined) return typeText(target, root, depth, hops + 1);
  }
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const shown = schema.enum.slice(0, MAX_ENUM_SHOWN).map((v) => JSON.stringify(v));
    return schema.enum.length > MAX_ENUM_SHOWN ? `${shown.join('|')}|…` : shown.join('|');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const t = schema.type;
  if (Array.isArray(t)) return t.map((x) => typeText({ ...schema, type: x }, root, depth, hops)).join('|');
  if (t === 'array') return depth > 2 ? 'array' : `${wrap(typeText(schema.items, root, depth + 1, hops))}[]`;
  if (typeof t === 'string') return t;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = schema[k];
    if (Array.isArray(branches) && branches.length > 0)
      return [...new Set(branches.map((b) => typeText(b, root, depth + 1, hops)))].join('|');
  }
  if (isObject(schema.properties)) return 'object';
  return 'any';
}

/**
 * A `$ref` within the schema itself: a JSON pointer (`#/$defs/address`) or a plain-name anchor (`#addressDef`, a
 * `$anchor` in `$defs`/`definitions`). Anything else (another document, a `$dynamicRef`) stays unresolved.
 */
export function resolveLocalRef(root: JsonObject, ref: string): JsonValue | undefined {
  if (ref === '#') return root;
  if (ref.startsWith('#/')) {
    let cur: JsonValue | undefined = root;
    for (const part of ref.slice(2).split('/')) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      cur = isObject(cur) && Object.hasOwn(cur, key) ? cur[key] : undefined;
      if (cur === undefined) return undefined;
    }
    return cur;
  }
  if (!/^#[A-Za-z_][\w.-]*$/.test(ref)) return undefined;
  const anchor = ref.slice(1);
  for (const k of ['$defs', 'definitions'] as const) {
    const defs = root[k];
    if (!isObject(defs)) continue;
    for (const def of Object.values(defs)) if (isObject(def) && def.$anchor === anchor) return def;
  }
  return undefined;
}

const wrap = (t: string): string => (t.includes('|') ? `(${t})` : t);

/** The arguments part: `path: string, head?: number` (required first, then in schema order). */
export function argumentSignature(schema: JsonObject | undefined): string {
  const props = schema?.properties;
  if (!schema || !isObject(props)) return '';
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
  const names = Object.keys(props);
  const ordered = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  return ordered.map((n) => `${n}${required.has(n) ? '' : '?'}: ${typeText(props[n], schema)}`).join(', ');
}

/** `name(arg: type, opt?: type)`. */
export function toolSignature(tool: ToolSnapshot): string {
  return `${tool.name}(${argumentSignature(tool.inputSchema)})`;
}

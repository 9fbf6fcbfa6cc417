/** One-line argument signatures for the minimal level: `read_file(path: string, head?: number)`. */
import type { JsonObject, JsonValue, ToolSnapshot } from '../../types.js';
import { isObject } from './schema-walk.js';

const MAX_ENUM_SHOWN = 4;

function typeText(schema: JsonValue | undefined, depth = 0): string {
  if (!isObject(schema)) return 'any';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const shown = schema.enum.slice(0, MAX_ENUM_SHOWN).map((v) => JSON.stringify(v));
    return schema.enum.length > MAX_ENUM_SHOWN ? `${shown.join('|')}|…` : shown.join('|');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const t = schema.type;
  if (Array.isArray(t)) return t.map((x) => typeText({ ...schema, type: x }, depth)).join('|');
  if (t === 'array') return depth > 2 ? 'array' : `${wrap(typeText(schema.items, depth + 1))}[]`;
  if (typeof t === 'string') return t;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = schema[k];
    if (Array.isArray(branches) && branches.length > 0)
      return [...new Set(branches.map((b) => typeText(b, depth + 1)))].join('|');
  }
  if (isObject(schema.properties)) return 'object';
  return 'any';
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
  return ordered.map((n) => `${n}${required.has(n) ? '' : '?'}: ${typeText(props[n])}`).join(', ');
}

/** `name(arg: type, opt?: type)`. */
export function toolSignature(tool: ToolSnapshot): string {
  return `${tool.name}(${argumentSignature(tool.inputSchema)})`;
}

/** Where JSON Schema keeps subschemas, so rewrites never touch values (enum, const, default) or property names. */
import type { JsonObject, JsonValue } from '../types.js';
import { dict, isObject as isObjectValue } from '../dict.js';
import { someSubschema, subschemaKind } from '../schema-keywords.js';
import { MAX_SCHEMA_DEPTH } from '../tool-validate.js';

export const isObject: (v: unknown) => v is JsonObject = isObjectValue;

/** Where a subschema sits, for rewrites that depend on it (a property's title vs. its name). */
export interface SchemaPlace {
  /** The property or definition name this subschema is the value of. */
  key?: string;
  depth: number;
  root: boolean;
}

/**
 * Rebuilds a schema bottom-up: `visit` gets each (already rebuilt) schema object and returns its
 * replacement. Boolean schemas and non-schema values are passed through untouched.
 */
export function mapSchema(
  schema: JsonValue,
  visit: (node: JsonObject, place: SchemaPlace) => JsonObject,
  place: SchemaPlace = { depth: 0, root: true },
): JsonValue {
  // Depth guard: tools deeper than this are set aside at the edge; anything deeper is passed through untouched.
  if (!isObject(schema) || place.depth > MAX_SCHEMA_DEPTH) return schema;
  const out: JsonObject = dict();
  const child = (v: JsonValue, key?: string): JsonValue =>
    mapSchema(v, visit, { key, depth: place.depth + 1, root: false });
  for (const [k, v] of Object.entries(schema)) {
    if (v === undefined) continue;
    const kind = subschemaKind(k);
    if ((kind === 'map' || kind === 'dependencies') && isObject(v)) {
      const m: JsonObject = dict();
      for (const [name, sub] of Object.entries(v)) {
        if (sub === undefined) continue;
        // A dependency's list of property names is data, not a subschema.
        if (kind === 'dependencies') m[name] = Array.isArray(sub) ? sub : child(sub);
        else m[name] = child(sub, name);
      }
      out[k] = m;
    } else if (kind === 'one') {
      out[k] = child(v);
    } else if (kind === 'items') {
      out[k] = Array.isArray(v) ? v.map((s) => child(s)) : child(v);
    } else if (kind === 'list' && Array.isArray(v)) {
      out[k] = v.map((s) => child(s));
    } else {
      out[k] = v;
    }
  }
  return visit(out, place);
}

/** Calls `fn` on every schema object without copying; stops early when `fn` returns true. */
export function someSchema(schema: JsonValue | undefined, fn: (node: JsonObject) => boolean, depth = 0): boolean {
  if (!isObject(schema) || depth > MAX_SCHEMA_DEPTH) return false;
  if (fn(schema)) return true;
  return someSubschema(schema, (sub) => someSchema(sub, fn, depth + 1));
}

/** Calls `fn` on every schema object. */
export function eachSchema(schema: JsonValue | undefined, fn: (node: JsonObject) => void): void {
  someSchema(schema, (node) => {
    fn(node);
    return false;
  });
}

/** True when any schema object in the tree has one of the keywords. */
export function hasKeyword(schema: JsonValue | undefined, keywords: readonly string[]): boolean {
  const wanted = new Set(keywords);
  return someSchema(schema, (node) => {
    for (const k in node) if (wanted.has(k)) return true;
    return false;
  });
}

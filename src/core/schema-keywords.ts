/**
 * Where JSON Schema keeps subschemas (drafts 04 to 2020-12): the one list every schema walk uses (condense's
 * rewrites, the x-mcp-header scan), so that a keyword is either known to all of them or to none. A leaf module:
 * it imports nothing but types, so any core module may use it without an import cycle.
 */
import type { JsonObject, JsonValue } from './types.js';
import { isObject as isObjectValue } from './dict.js';

/** Keywords whose value is a map from names to subschemas. */
export const SCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependentSchemas',
] as const;
/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contentSchema',
] as const;
/** Keywords whose value is a list of subschemas. */
export const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** One subschema, or (before 2020-12) a list of them. */
export const ITEMS_KEYWORD = 'items';
/** Before 2019-09: a map whose values are subschemas or lists of property names. */
export const DEPENDENCIES_KEYWORD = 'dependencies';

/** How a keyword's value holds subschemas: `map`, `one`, `list`, `items` (one or a list), `dependencies`. */
export type SubschemaKind = 'map' | 'one' | 'list' | 'items' | 'dependencies';

const KINDS: ReadonlyMap<string, SubschemaKind> = new Map<string, SubschemaKind>([
  ...SCHEMA_MAP_KEYWORDS.map((k) => [k, 'map'] as const),
  ...SCHEMA_KEYWORDS.map((k) => [k, 'one'] as const),
  ...SCHEMA_LIST_KEYWORDS.map((k) => [k, 'list'] as const),
  [ITEMS_KEYWORD, 'items'],
  [DEPENDENCIES_KEYWORD, 'dependencies'],
]);

/** How the keyword holds subschemas, or undefined for a keyword whose value is data (enum, const, default, …). */
export function subschemaKind(keyword: string): SubschemaKind | undefined {
  return KINDS.get(keyword);
}

const isObject: (v: unknown) => v is JsonObject = isObjectValue;

/**
 * Calls `fn` on each direct subschema of a schema object, in the object's key order, with the keyword it sits
 * under and, for maps, its name; stops at the first call that returns true, and says whether one did. Values
 * that are not where a subschema goes (a dependency's list of names, a map keyword holding a non-object) are
 * skipped; boolean subschemas are passed on like any other.
 */
export function someSubschema(
  schema: JsonObject,
  fn: (sub: JsonValue, keyword: string, name: string | undefined) => boolean,
): boolean {
  for (const [keyword, value] of Object.entries(schema)) {
    if (value === undefined) continue;
    const kind = KINDS.get(keyword);
    if (kind === undefined) continue;
    if (kind === 'map' || kind === 'dependencies') {
      if (!isObject(value)) continue;
      for (const [name, sub] of Object.entries(value))
        if (sub !== undefined && !(kind === 'dependencies' && Array.isArray(sub)) && fn(sub, keyword, name))
          return true;
    } else if (Array.isArray(value) && kind !== 'one') {
      for (const sub of value) if (fn(sub, keyword, undefined)) return true;
    } else if (fn(value, keyword, undefined)) {
      // A list keyword holding one schema is malformed, but walked like one so that nothing below it is missed.
      return true;
    }
  }
  return false;
}

/** Calls `fn` on each direct subschema of a schema object (see someSubschema). */
export function eachSubschema(
  schema: JsonObject,
  fn: (sub: JsonValue, keyword: string, name: string | undefined) => void,
): void {
  someSubschema(schema, (sub, keyword, name) => {
    fn(sub, keyword, name);
    return false;
  });
}

/** Compact condensing: the lossless schema with prose shortened; every property, type, enum, default and required kept. */
import type { JsonObject } from '../types.js';
import { repeatsName, shortenProse } from './prose.js';
import { isObject, mapSchema } from './schema-walk.js';

export const COMPACT_TOOL_DESCRIPTION_MAX = 200;
export const COMPACT_PROPERTY_DESCRIPTION_MAX = 120;

/** Shortens schema descriptions, drops those that only repeat the property name, and drops titles and examples. */
export function compactSchema(schema: JsonObject): JsonObject {
  const out = mapSchema(schema, (node, place) => {
    const n: JsonObject = { ...node };
    delete n.title;
    delete n.examples;
    if (typeof n.description === 'string') {
      if (place.key !== undefined && repeatsName(n.description, place.key)) delete n.description;
      else n.description = shortenProse(n.description, COMPACT_PROPERTY_DESCRIPTION_MAX);
      if (n.description === '') delete n.description;
    }
    return n;
  });
  return isObject(out) ? out : schema;
}

export function compactDescription(description: string): string {
  return shortenProse(description, COMPACT_TOOL_DESCRIPTION_MAX);
}

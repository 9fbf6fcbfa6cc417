/**
 * Lossless condensing: rewrites that provably change no validation outcome, every description kept.
 * Each rule below states why it is safe; the proof test checks them with ajv on real catalogues.
 */
import type { JsonObject, JsonValue } from '../types.js';
import { isObject, mapSchema, someSchema, type SchemaPlace } from './schema-walk.js';

/**
 * Keywords whose meaning differs between drafts (07 vs 2019-09/2020-12) or that move the base URI.
 * When present, `$schema` is kept (it selects the dialect) and structural rewrites are skipped.
 */
const DRAFT_SENSITIVE = [
  '$ref',
  '$id',
  'id',
  '$anchor',
  '$dynamicRef',
  '$dynamicAnchor',
  '$recursiveRef',
  '$recursiveAnchor',
  'additionalItems',
  'prefixItems',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$vocabulary',
  // 2019-09 keywords a draft-07 validator ignores: dropping `$schema` would switch them on.
  'minContains',
  'maxContains',
  'contentSchema',
] as const;

const DRAFT_SENSITIVE_SET: ReadonlySet<string> = new Set(DRAFT_SENSITIVE);

/** Letters and digits only, lower-cased: "Num Results" ≈ "num_results". */
export function normalizeName(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

const ROOT_TITLE_SUFFIXES = ['', 'arguments', 'args', 'input', 'params', 'parameters', 'request', 'schema'];

/**
 * Case and word separators only: "User ID" ≈ "user_id" ≈ "userId". Any other character a title adds
 * ("Temperature (°C)" beside `temperature_c`, "C++" beside `c`) tells the model something, so it stays.
 */
function sameWords(s: string): string {
  return s.toLowerCase().replace(/[\s_.-]+/g, '');
}

function titleRepeatsName(title: string, place: SchemaPlace, toolName: string): boolean {
  const t = sameWords(title);
  if (t === '') return true;
  if (place.key !== undefined && t === sameWords(place.key)) return true;
  if (place.root) return ROOT_TITLE_SUFFIXES.some((suffix) => t === sameWords(toolName) + suffix);
  return false;
}

/** JSON Schema's instance type check for one type name. */
export function matchesType(value: JsonValue, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

function typeAdmitsAll(type: JsonValue | undefined, values: JsonValue[]): boolean {
  const types =
    typeof type === 'string'
      ? [type]
      : Array.isArray(type) && type.every((t) => typeof t === 'string')
        ? type
        : undefined;
  if (!types) return false;
  return values.every((v) => types.some((t) => matchesType(v, t)));
}

/** `{anyOf: [{type: A}, {type: B}]}` → the type list, when every branch is a bare `type`. */
function anyOfTypeUnion(branches: JsonValue): string[] | undefined {
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const types: string[] = [];
  for (const b of branches) {
    if (!isObject(b) || Object.keys(b).length !== 1) return undefined;
    const t = b.type;
    const list =
      typeof t === 'string' ? [t] : Array.isArray(t) && t.every((x) => typeof x === 'string') ? t : undefined;
    if (!list) return undefined;
    for (const x of list) if (!types.includes(x)) types.push(x);
  }
  return types;
}

function losslessNode(node: JsonObject, place: SchemaPlace, toolName: string, structural: boolean): JsonObject {
  const out: JsonObject = { ...node };
  // Annotations: no validator reads them.
  delete out.$comment;
  if (typeof out.title === 'string' && titleRepeatsName(out.title, place, toolName)) delete out.title;
  // `required: []` requires nothing. (Duplicates stay: they make the schema invalid for strict
  // validators, and removing them would change that outcome.)
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  // Every enum/const value already has the type, so `type` rejects nothing `enum` accepts.
  if (out.type !== undefined && Array.isArray(out.enum) && typeAdmitsAll(out.type, out.enum)) delete out.type;
  else if (out.type !== undefined && 'const' in out && out.const !== undefined && typeAdmitsAll(out.type, [out.const]))
    delete out.type;
  if (structural) {
    // `true` and `{}` subschemas accept everything: the same as leaving the keyword out (draft-07;
    // in 2019+ they would mark items/properties evaluated, but then unevaluated* is present and we skip).
    for (const k of ['additionalProperties', 'items'] as const) {
      const v = out[k];
      if (v === true || (isObject(v) && Object.keys(v).length === 0)) delete out[k];
    }
    // anyOf of bare types is a type list; only when no sibling `type` would intersect it.
    const union =
      out.type === undefined ? (out.anyOf === undefined ? undefined : anyOfTypeUnion(out.anyOf)) : undefined;
    if (union) {
      const rebuilt: JsonObject = {};
      for (const [k, v] of Object.entries(out)) {
        if (k === 'anyOf') rebuilt.type = union.length === 1 ? union[0] : union;
        else rebuilt[k] = v;
      }
      return rebuilt;
    }
  }
  return out;
}

/** The validation-equivalent schema. `toolName` lets a root title like "read_fileArguments" go. */
export function condenseSchemaLossless(schema: JsonObject, toolName: string): JsonObject {
  const sensitive = someSchema(schema, (node) => {
    for (const k in node) if (DRAFT_SENSITIVE_SET.has(k)) return true;
    // The tuple form of `items` is draft-07's; 2020-12 spells it `prefixItems` and rejects an `items` list.
    if (Array.isArray(node.items)) return true;
    return typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean';
  });
  const rebuilt = mapSchema(schema, (node, place) => losslessNode(node, place, toolName, !sensitive));
  const out = isObject(rebuilt) ? rebuilt : schema;
  // `$schema` only selects the dialect; without draft-sensitive keywords every draft gives the same verdict.
  if (
    !sensitive &&
    typeof out.$schema === 'string' &&
    /json-schema\.org\/(draft-0[67]|draft\/2019-09|draft\/2020-12)/.test(out.$schema)
  ) {
    const { $schema: _dropped, ...rest } = out;
    void _dropped;
    return rest;
  }
  return out;
}

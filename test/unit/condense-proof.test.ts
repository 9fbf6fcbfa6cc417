// PROOF that `lossless` is validation-equivalent: for every tool of the LiveMCPBench slice (198 real MCP tools of
// 70 servers, the 25 largest schemas among them: fixtures/livemcpbench) and of the fixture
// catalogues, generated instances (valid ones and near-misses) get the same ajv verdict on the original
// and the condensed schema. Dialect follows the original's $schema; where lossless dropped $schema the
// condensed schema is checked under both draft-07 and 2020-12, since a client may assume either.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import type { JsonObject, JsonValue, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';

type Validate = (data: unknown) => boolean;
type AjvLike = { compile(schema: object): Validate };
type AjvCtor = new (opts: object) => AjvLike;
const ctor = (m: unknown): AjvCtor => ((m as { default?: AjvCtor }).default ?? m) as AjvCtor;
// Instances are checked with meta-schema validation off, so schemas that a strict client would reject
// (e.g. draft-04 boolean exclusiveMinimum) are still compared; meta-validity is compared separately.
const OPTS = { strict: false, allErrors: false, logger: false, validateFormats: false, validateSchema: false };
type AjvWithMeta = AjvLike & { validateSchema(schema: object): boolean | Promise<unknown> };
const dialects = (validateSchema: boolean) => {
  const o = { ...OPTS, validateSchema };
  return {
    d07: new (ctor(AjvModule))(o) as AjvWithMeta,
    d2019: new (ctor(Ajv2019Module))(o) as AjvWithMeta,
    d2020: new (ctor(Ajv2020Module))(o) as AjvWithMeta,
  };
};
const { d07: draft07, d2019: draft2019, d2020: draft2020 } = dialects(false);
const meta = dialects(true);

function dialectFor(schema: JsonObject, set = { d07: draft07, d2019: draft2019, d2020: draft2020 }): AjvWithMeta {
  const s = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (s.includes('2020-12')) return set.d2020;
  if (s.includes('2019-09')) return set.d2019;
  return set.d07;
}

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveRef(root: JsonObject, ref: string): JsonValue | undefined {
  if (!ref.startsWith('#')) return undefined;
  // A plain-name anchor (2020-12 `$anchor` in `$defs`).
  if (/^#[A-Za-z_]/.test(ref) && isObj(root.$defs))
    return Object.values(root.$defs).find((d) => isObj(d) && d.$anchor === ref.slice(1));
  let cur: JsonValue | undefined = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    cur = isObj(cur) ? cur[key] : Array.isArray(cur) ? cur[Number(key)] : undefined;
  }
  return cur;
}

/** A value meant to satisfy the schema (best effort: the test is equal verdicts, not validity). */
function sample(schema: JsonValue | undefined, root: JsonObject, depth = 0): JsonValue {
  if (!isObj(schema) || depth > 8) return 'x';
  if (typeof schema.$ref === 'string') return sample(resolveRef(root, schema.$ref), root, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const b = schema[k];
    if (Array.isArray(b) && b.length > 0 && schema.type === undefined) {
      const pick = b.find((x) => !(isObj(x) && x.type === 'null')) ?? b[0];
      return sample(pick, root, depth + 1);
    }
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const t = types.find((x) => x !== 'null') ?? types[0] ?? (isObj(schema.properties) ? 'object' : 'string');
  switch (t) {
    case 'object': {
      const out: JsonObject = {};
      if (isObj(schema.properties))
        for (const [k, v] of Object.entries(schema.properties)) out[k] = sample(v, root, depth + 1);
      return out;
    }
    case 'array': {
      if (Array.isArray(schema.prefixItems)) return schema.prefixItems.map((s) => sample(s, root, depth + 1));
      if (Array.isArray(schema.items)) return schema.items.map((s) => sample(s, root, depth + 1));
      const n = typeof schema.minItems === 'number' ? Math.max(1, schema.minItems) : 1;
      return Array.from({ length: n }, () => sample(schema.items, root, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min =
        typeof schema.minimum === 'number'
          ? schema.minimum
          : typeof schema.exclusiveMinimum === 'number'
            ? schema.exclusiveMinimum + 1
            : 1;
      return t === 'integer' ? Math.ceil(min) : min;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const n = typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 5;
      return 'a'.repeat(n);
    }
  }
}

/** Values of every JSON type (plus enum/const neighbours) to put in each property's place. */
const PROBES: JsonValue[] = [
  'text',
  '',
  0,
  7,
  -1,
  2.5,
  true,
  false,
  null,
  [],
  ['a'],
  [1, 'b'],
  {},
  { k: 1 },
  '__not_in_enum__',
];

/** Valid-looking instances and near-misses for one schema. */
function instances(schema: JsonObject): JsonValue[] {
  const base = sample(schema, schema);
  const out: JsonValue[] = [base, {}, null, 'string', 3, [], { __extra__: 1 }];
  if (!isObj(base)) return out;
  out.push({ ...base, __extra__: 1 });
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const r of required) {
    if (typeof r !== 'string') continue;
    const missing = { ...base };
    delete missing[r];
    out.push(missing);
  }
  for (const [key, value] of Object.entries(base)) {
    for (const probe of PROBES) out.push({ ...base, [key]: probe });
    // One level down: the same probes inside nested objects.
    if (isObj(value)) {
      for (const [inner] of Object.entries(value)) {
        for (const probe of PROBES) out.push({ ...base, [key]: { ...value, [inner]: probe } });
        const missing = { ...value };
        delete missing[inner];
        out.push({ ...base, [key]: missing });
      }
    }
    if (Array.isArray(value) && value.length > 0) {
      for (const probe of PROBES) out.push({ ...base, [key]: [probe] });
      if (isObj(value[0]))
        for (const [inner] of Object.entries(value[0]))
          for (const probe of PROBES) out.push({ ...base, [key]: [{ ...value[0], [inner]: probe }] });
    }
  }
  return out;
}

interface Catalogue {
  name: string;
  tools: ToolSnapshot[];
}

function liveMcpBench(): Catalogue {
  const doc = JSON.parse(readFileSync(join(FIXTURES, 'livemcpbench', 'tools-slice.json'), 'utf8')) as {
    tools: Record<string, { tools: ToolSnapshot[] }>;
  }[];
  return { name: 'livemcpbench', tools: doc.flatMap((e) => Object.values(e.tools).flatMap((s) => s.tools)) };
}

function fixtureCatalogues(): Catalogue[] {
  const out: Catalogue[] = [];
  const catalogs = join(FIXTURES, 'servers', 'catalogs');
  for (const f of readdirSync(catalogs)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(catalogs, f), 'utf8')) as { tools?: ToolSnapshot[] };
    out.push({ name: `catalogs/${f}`, tools: doc.tools ?? [] });
  }
  const snapshots = join(FIXTURES, 'snapshots');
  for (const f of readdirSync(snapshots)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const doc = JSON.parse(readFileSync(join(snapshots, f), 'utf8')) as { servers?: { tools?: ToolSnapshot[] }[] };
    out.push({ name: `snapshots/${f}`, tools: (doc.servers ?? []).flatMap((s) => s.tools ?? []) });
  }
  return out;
}

interface ProofStats {
  tools: number;
  instances: number;
  validOriginal: number;
  mismatches: string[];
  changedSchemas: number;
  schemaInvalid: number;
  uncompilable: number;
}

function prove(tools: ToolSnapshot[]): ProofStats {
  const stats: ProofStats = {
    tools: 0,
    instances: 0,
    validOriginal: 0,
    mismatches: [],
    changedSchemas: 0,
    schemaInvalid: 0,
    uncompilable: 0,
  };
  for (const tool of tools) {
    const original = tool.inputSchema ?? { type: 'object' };
    const condensed = condenseTool(tool, 'lossless').inputSchema ?? { type: 'object' };
    stats.tools++;
    if (JSON.stringify(original) !== JSON.stringify(condensed)) stats.changedSchemas++;
    const ajv = dialectFor(original);
    const metaValidator = dialectFor(original, meta);
    const metaOk = (x: JsonObject): boolean => metaValidator.validateSchema(x) === true;
    if (metaOk(original) !== metaOk(condensed)) stats.mismatches.push(`${tool.name}: meta-schema validity changed`);
    if (!metaOk(original)) stats.schemaInvalid++;
    const tryCompile = (v: AjvLike, x: JsonObject): Validate | undefined => {
      try {
        return v.compile(x);
      } catch {
        return undefined;
      }
    };
    const vOriginal = tryCompile(ajv, original);
    const vSame = tryCompile(ajv, condensed);
    // A schema the validator cannot compile must stay uncompilable: the client rejects it either way.
    if (!vOriginal || !vSame) {
      if (!vOriginal !== !vSame) stats.mismatches.push(`${tool.name}: compilability changed`);
      stats.uncompilable++;
      continue;
    }
    const vCondensed = [vSame];
    if (original.$schema !== undefined && condensed.$schema === undefined)
      vCondensed.push(draft07.compile(condensed), draft2020.compile(condensed));
    for (const inst of instances(original)) {
      const expected = vOriginal(inst);
      stats.instances++;
      if (expected) stats.validOriginal++;
      for (const v of vCondensed) {
        if (v(inst) !== expected)
          stats.mismatches.push(`${tool.name}: ${JSON.stringify(inst).slice(0, 200)} original=${expected}`);
      }
    }
  }
  return stats;
}

describe('lossless condensing is validation-equivalent (ajv proof)', () => {
  it('gives the same verdict on every generated instance of every tool of the LiveMCPBench slice', () => {
    const { tools } = liveMcpBench();
    const stats = prove(tools);
    expect(stats.tools).toBe(198);
    expect(stats.mismatches).toEqual([]);
    // The proof is only meaningful if it exercises both verdicts and real rewrites.
    expect(stats.instances).toBeGreaterThan(12_000);
    expect(stats.validOriginal).toBeGreaterThan(2_000);
    expect(stats.instances - stats.validOriginal).toBeGreaterThan(9_000);
    expect(stats.changedSchemas).toBeGreaterThan(120);
    expect(stats.uncompilable).toBeLessThan(5);
    console.info(`lossless proof: ${JSON.stringify({ ...stats, mismatches: stats.mismatches.length })}`);
  });

  for (const cat of fixtureCatalogues()) {
    it(`gives the same verdict on every generated instance of ${cat.name}`, () => {
      const stats = prove(cat.tools);
      expect(stats.mismatches).toEqual([]);
      if (cat.tools.length > 0) expect(stats.validOriginal).toBeGreaterThan(0);
    });
  }

  it('keeps a type that contradicts its enum or const, and titles that say more than the name (fixtures/condense/lossless-edges)', () => {
    const edges = JSON.parse(readFileSync(join(FIXTURES, 'condense', 'lossless-edges.json'), 'utf8')) as {
      tools: ToolSnapshot[];
    };
    const stats = prove(edges.tools);
    expect(stats.mismatches).toEqual([]);
    expect(stats.changedSchemas).toBe(2);
    const props = (name: string): Record<string, JsonObject> =>
      (
        condenseTool(
          edges.tools.find((t) => t.name === name)!,
          'lossless',
        ).inputSchema as JsonObject
      ).properties as Record<string, JsonObject>;
    const mode = props('set_mode');
    // Nothing validates `mode` or `level` as written; without `type`, {mode: 3} or {level: 2.5} would.
    expect(mode.mode).toEqual({ type: 'string', enum: [3, 4] });
    expect(mode.level).toEqual({ type: 'integer', const: 2.5 });
    expect(mode.ratio).toEqual({ type: ['string', 'null'], enum: [0.5, null] });
    expect(mode.kind).toEqual({ enum: ['a', 'b'] });
    const sensor = props('read_sensor');
    expect(sensor.temperature_c!.title).toBe('Temperature (°C)');
    expect(sensor.c!.title).toBe('C++');
    expect(sensor.user_id!.title).toBeUndefined();
    expect(sensor.limit!.title).toBeUndefined();
  });

  it('gives the same verdict on 2020-12 schemas, and keeps $schema where dropping it would switch dialect (fixtures/condense/schemas-2020-12)', () => {
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'condense', 'schemas-2020-12.json'), 'utf8')) as {
      tools: ToolSnapshot[];
    };
    const stats = prove(doc.tools);
    expect(stats.tools).toBe(5);
    expect(stats.mismatches).toEqual([]);
    expect(stats.uncompilable).toBe(0);
    expect(stats.validOriginal).toBeGreaterThan(10);
    expect(stats.instances - stats.validOriginal).toBeGreaterThan(100);
    // Four lose a title or $comment; plot_points has none, and its `additionalProperties: {}` stays because
    // prefixItems and minContains make the schema draft-sensitive.
    expect(stats.changedSchemas).toBe(4);
    expect(
      condenseTool(
        doc.tools.find((t) => t.name === 'plot_points')!,
        'lossless',
      ),
    ).toEqual(doc.tools.find((t) => t.name === 'plot_points'));
    // Why the draft-07 tools keep $schema: without it a 2020-12 validator (the MCP default) decides otherwise.
    const legacy = doc.tools.find((t) => t.name === 'legacy_contains')!.inputSchema!;
    const { $schema: _dialect, ...undeclared } = legacy;
    const once = { flags: ['on', 'off'] };
    expect(draft07.compile(legacy)(once)).toBe(true);
    expect(draft2020.compile(undeclared)(once)).toBe(false);
    const tuple = doc.tools.find((t) => t.name === 'legacy_tuple')!.inputSchema!;
    const { $schema: _tupleDialect, ...tupleUndeclared } = tuple;
    expect(draft07.compile(tuple)({ pair: ['a', 'b'] })).toBe(false);
    // 2020-12 has no items list (that is prefixItems): a client would refuse the schema outright.
    expect(() => draft2020.compile(tupleUndeclared)).toThrow(/items/);
  });

  it('keeps every description of every tool of the LiveMCPBench slice', () => {
    const descriptions = (v: JsonValue | undefined, acc: string[] = []): string[] => {
      if (Array.isArray(v)) v.forEach((x) => descriptions(x, acc));
      else if (isObj(v))
        for (const [k, x] of Object.entries(v))
          if (k === 'description' && typeof x === 'string') acc.push(x);
          else descriptions(x, acc);
      return acc;
    };
    for (const tool of liveMcpBench().tools) {
      const condensed = condenseTool(tool, 'lossless');
      expect(descriptions(condensed as unknown as JsonValue).sort()).toEqual(
        descriptions(tool as unknown as JsonValue).sort(),
      );
    }
  });
});

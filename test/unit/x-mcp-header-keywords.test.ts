// x-mcp-header (SEP-2243) and every JSON Schema keyword that holds subschemas (issue 27 items 4 and 6): a declaration
// below any of them is found (and, being outside a chain of properties, leaves the tool out), and a schema that
// uses any of them keeps its valid declarations at every condense level. The keywords are written out here, not
// taken from src/, so a keyword the source forgets fails this test.
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import { validateTools } from '../../src/core/tool-validate.js';
import { scanHeaderDeclarations } from '../../src/core/x-mcp-header.js';
import type { CondenseLevel, JsonObject, ToolSnapshot } from '../../src/core/types.js';

const H = { type: 'string', 'x-mcp-header': 'Hidden' };
const LEVELS: CondenseLevel[] = ['full', 'lossless', 'compact', 'minimal', 'names'];

/** Each keyword, a property schema `a` that declares a header below it, and the path the scan reports. */
const UNDER: [keyword: string, a: JsonObject, path: string][] = [
  ['items', { type: 'array', items: H }, 'a.<items>'],
  ['items (a list)', { type: 'array', items: [H] }, 'a.<items>'],
  ['prefixItems', { type: 'array', prefixItems: [{ type: 'integer' }, H] }, 'a.<prefixItems>'],
  ['additionalItems', { type: 'array', items: [{ type: 'integer' }], additionalItems: H }, 'a.<additionalItems>'],
  ['contains', { type: 'array', contains: H }, 'a.<contains>'],
  [
    'unevaluatedItems',
    { type: 'array', prefixItems: [{ type: 'integer' }], unevaluatedItems: H },
    'a.<unevaluatedItems>',
  ],
  ['additionalProperties', { type: 'object', additionalProperties: H }, 'a.<additionalProperties>'],
  ['unevaluatedProperties', { type: 'object', unevaluatedProperties: H }, 'a.<unevaluatedProperties>'],
  ['patternProperties', { type: 'object', patternProperties: { '^x': H } }, 'a.<patternProperties>'],
  ['propertyNames', { type: 'object', propertyNames: H }, 'a.<propertyNames>'],
  ['dependentSchemas', { type: 'object', dependentSchemas: { b: { properties: { c: H } } } }, 'a.<dependentSchemas>.c'],
  ['dependencies', { type: 'object', dependencies: { x: ['y'], b: { properties: { c: H } } } }, 'a.<dependencies>.c'],
  ['contentSchema', { type: 'string', contentMediaType: 'application/json', contentSchema: H }, 'a.<contentSchema>'],
  [
    'contentSchema (an object document)',
    { type: 'string', contentMediaType: 'application/json', contentSchema: { type: 'object', properties: { c: H } } },
    'a.<contentSchema>.c',
  ],
  ['allOf', { type: 'string', allOf: [H] }, 'a.<allOf>'],
  ['anyOf', { anyOf: [{ type: 'integer' }, H] }, 'a.<anyOf>'],
  ['oneOf', { oneOf: [H, { type: 'integer' }] }, 'a.<oneOf>'],
  ['not', { type: 'string', not: H }, 'a.<not>'],
  ['if', { type: 'string', if: H }, 'a.<if>'],
  ['then', { type: 'string', if: { minLength: 1 }, then: H }, 'a.<then>'],
  ['else', { type: 'string', if: { minLength: 1 }, else: H }, 'a.<else>'],
  ['$defs', { type: 'string', $defs: { h: H } }, 'a.<$defs>'],
  ['definitions', { type: 'string', definitions: { h: H } }, 'a.<definitions>'],
];

describe('a declaration below any subschema keyword is found', () => {
  it.each(UNDER)('under %s it is outside a chain of properties, so the tool is left out', (_k, a, path) => {
    const reason = `${path}: x-mcp-header outside a chain of properties`;
    expect(scanHeaderDeclarations({ type: 'object', properties: { a } })).toEqual({ valid: false, reason });
    const checked = validateTools([{ name: 'bad', inputSchema: { type: 'object', properties: { a } } }]);
    expect(checked.tools).toEqual([]);
    expect(checked.problems).toEqual([`#1 "bad": ${reason}, so it is left out`]);
  });

  it.each(UNDER)('under %s at the root as well', (_k, a, path) => {
    const root = { ...a, type: 'object' };
    const reason = `${path.slice('a.'.length)}: x-mcp-header outside a chain of properties`;
    expect(scanHeaderDeclarations(root)).toEqual({ valid: false, reason });
  });
});

describe('a schema using any subschema keyword keeps its declarations at every condense level', () => {
  const declarations = [
    { path: ['region'], header: 'Region' },
    { path: ['target', 'tenant'], header: 'Tenant-Id' },
  ];
  // The keyword sits at the root and on the object between the root and the nested declaration, with a
  // subschema that lossless and compact rewrite (a title repeating its key, a description).
  const using = (a: JsonObject): ToolSnapshot => {
    const { type: _type, ...keyword } = JSON.parse(
      JSON.stringify(a).replaceAll('"x-mcp-header":"Hidden"', '"title":"Hidden","description":"Not a header."'),
    ) as JsonObject;
    return {
      name: 'deploy',
      description: 'Deploys a service to a region. It waits for the health check.',
      inputSchema: {
        type: 'object',
        ...keyword,
        properties: {
          region: { type: 'string', title: 'Region', description: 'Where to deploy.', 'x-mcp-header': 'Region' },
          target: {
            type: 'object',
            ...keyword,
            properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } },
          },
        },
        required: ['region'],
      },
    };
  };

  it.each(UNDER)('with %s', (_k, a) => {
    const tool = using(a);
    expect(validateTools([tool]).problems).toEqual([]);
    for (const level of LEVELS)
      expect(scanHeaderDeclarations(condenseTool(tool, level).inputSchema), level).toEqual({
        valid: true,
        declarations,
      });
  });
});

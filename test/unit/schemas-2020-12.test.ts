// 2026-era schemas (issue 27 item 6): tools whose inputSchema uses JSON Schema 2020-12 keywords
// (fixtures/condense/schemas-2020-12.json) are counted whole, condensed (the lossless proof is in
// condense-proof.test.ts; here the signature's bounded $ref resolution), validated by serve with the SDK's Ajv in the
// 2020-12 dialect, and their x-mcp-header declarations (SEP-2243) are checked and survive every condense level.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import { argumentSignature, resolveLocalRef } from '../../src/core/condense/signature.js';
import { createTokenCounter, renderToolJson } from '../../src/core/tokens/index.js';
import { validateTools } from '../../src/core/tool-validate.js';
import { headerOnlySchema, scanHeaderDeclarations } from '../../src/core/x-mcp-header.js';
import { ArgumentValidator } from '../../src/serve/meta.js';
import type { CondenseLevel, JsonObject, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';

const { tools } = JSON.parse(readFileSync(join(FIXTURES, 'condense', 'schemas-2020-12.json'), 'utf8')) as {
  tools: ToolSnapshot[];
};
const tool = (name: string): ToolSnapshot => tools.find((t) => t.name === name)!;
const KEYWORDS = [
  '$defs',
  '$anchor',
  '$ref',
  'unevaluatedProperties',
  'allOf',
  'if',
  'then',
  'else',
  'prefixItems',
  'minContains',
  'maxContains',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
];

describe('2020-12 keywords count in tokens', () => {
  it('every keyword is in the rendered tool and the count is exact (js-tiktoken agrees)', async () => {
    const ours = await createTokenCounter('o200k_base');
    const reference = new Tiktoken(o200k);
    const rendered = tools.map(renderToolJson).join('\n');
    for (const k of KEYWORDS) expect(rendered, k).toContain(`"${k}"`);
    for (const t of tools) {
      const text = renderToolJson(t);
      expect(ours.count(text), t.name).toBe(reference.encode(text, [], []).length);
    }
    // A keyword costs what its text costs: dropping prefixItems from plot_points lowers the count by that much.
    const plot = tool('plot_points');
    const point = (plot.inputSchema!.properties as JsonObject).point as JsonObject;
    const { prefixItems: _gone, ...rest } = point;
    const without = {
      ...plot,
      inputSchema: {
        ...plot.inputSchema,
        properties: { ...(plot.inputSchema!.properties as JsonObject), point: rest },
      },
    };
    expect(ours.count(renderToolJson(without))).toBeLessThan(ours.count(renderToolJson(plot)));
  });
});

describe('2020-12 schemas condense', () => {
  it('lossless keeps every 2020-12 keyword and $schema, dropping only titles that repeat names and $comment', () => {
    const s = condenseTool(tool('ship_order'), 'lossless').inputSchema!;
    expect(s.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(s.$comment).toBeUndefined();
    expect(s.title).toBeUndefined();
    const address = (s.$defs as JsonObject).address as JsonObject;
    expect(address).toMatchObject({ $anchor: 'addressDef', unevaluatedProperties: false });
    expect(address.title).toBeUndefined();
    for (const k of ['allOf', 'if', 'then', 'else', 'unevaluatedProperties']) expect(s[k], k).toBeDefined();
  });

  it('lossless keeps the $schema of draft-07 tools whose items list or minContains would mean something else in 2020-12', () => {
    for (const name of ['legacy_tuple', 'legacy_contains']) {
      const s = condenseTool(tool(name), 'lossless').inputSchema!;
      expect(s.$schema, name).toBe('http://json-schema.org/draft-07/schema#');
      expect(s.title, name).toBeUndefined();
    }
  });

  it('the minimal signature resolves $ref and $anchor within the schema', () => {
    expect(argumentSignature(tool('ship_order').inputSchema)).toBe(
      'name: string, address: object, items: string[], contactMethod?: "phone"|"email", phone?: string, email?: string',
    );
    const root = tool('ship_order').inputSchema!;
    expect(resolveLocalRef(root, '#addressDef')).toBe((root.$defs as JsonObject).address);
    expect(resolveLocalRef(root, '#/$defs/sku')).toEqual({ type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' });
    for (const ref of ['#nowhere', '#/$defs/none', 'https://example.com/s.json', '#/$defs/sku/../x'])
      expect(resolveLocalRef(root, ref), ref).toBeUndefined();
  });

  it('a $ref cycle stops at the hop bound instead of looping', () => {
    const cyclic: JsonObject = {
      type: 'object',
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' }, node: { $ref: '#/$defs/node' } },
      properties: { x: { $ref: '#/$defs/a' }, y: { $ref: '#/$defs/node' }, z: { $ref: '#' } },
    };
    expect(argumentSignature(cyclic)).toBe('x?: any, y?: any, z?: object');
  });
});

describe('2020-12 arguments are validated by serve (the SDK Ajv, 2020-12 when $schema is absent or says so)', () => {
  const validator = new ArgumentValidator();
  const check = (name: string, args: Record<string, unknown>) =>
    validator.check({ id: `fx.${name}`, server: 'fx', tool: tool(name) }, args);
  const ok = { name: 'Ada', address: { street: 'Main St 1', city: 'Paris' }, items: ['ABC-1234'], email: 'a@b.c' };

  it('accepts valid arguments', async () => {
    await expect(check('ship_order', ok)).resolves.toBeUndefined();
    await expect(check('plot_points', { point: [1, 2, 'home'], tags: ['pinned', 'x'] })).resolves.toBeUndefined();
    await expect(check('configure_proxy', { host: 'h', auth: true, user: 'u' })).resolves.toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['ship_order', { ...ok, address: { street: 's', city: 'c', zip: '1' } }, 'unevaluatedProperties via $anchor'],
    ['ship_order', { ...ok, items: ['abc'] }, '$ref to $defs pattern'],
    ['ship_order', { ...ok, contactMethod: 'phone' }, 'if/then'],
    ['ship_order', { name: 'Ada', address: ok.address, items: ['ABC-1234'] }, 'allOf/anyOf'],
    ['plot_points', { point: [1, 2, 'home', 'extra'] }, 'prefixItems with items: false'],
    ['plot_points', { point: ['1', 2] }, 'prefixItems type'],
    ['plot_points', { point: [1, 2], tags: ['pinned', 'pinned', 'pinned'] }, 'maxContains'],
    ['configure_proxy', { host: 'h', credit_card: '4111' }, 'dependentRequired'],
    ['configure_proxy', { host: 'h', auth: true }, 'dependentSchemas'],
    ['configure_proxy', { host: 'h', Port: 1 }, 'propertyNames'],
  ])('%s rejects %j (%s)', async (name, args, _why) => {
    await expect(check(name, args)).rejects.toMatchObject({ code: 'SERVE_BAD_ARGUMENTS' });
  });
});

describe('x-mcp-header (SEP-2243)', () => {
  const withHeaders: ToolSnapshot = {
    name: 'deploy',
    description: 'Deploys a service to a region.',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Where to deploy.', 'x-mcp-header': 'Region' },
        target: {
          type: 'object',
          title: 'Target',
          properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id', examples: [7] } },
        },
        dry_run: { type: 'boolean', title: 'Dry run' },
      },
      required: ['region'],
    },
  };
  const declared = (t: ToolSnapshot) => {
    const scan = scanHeaderDeclarations(t.inputSchema);
    return scan.valid ? scan.declarations : scan.reason;
  };

  it.each(['full', 'lossless', 'compact', 'minimal', 'names'] as CondenseLevel[])(
    'every declaration survives the %s level',
    (level) => {
      expect(declared(condenseTool(withHeaders, level))).toEqual([
        { path: ['region'], header: 'Region' },
        { path: ['target', 'tenant'], header: 'Tenant-Id' },
      ]);
    },
  );

  it('the minimal and names levels keep only the chains to the declarations, with their types', () => {
    expect(headerOnlySchema(withHeaders.inputSchema)).toEqual({
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        target: { type: 'object', properties: { tenant: { type: 'integer', 'x-mcp-header': 'Tenant-Id' } } },
      },
    });
    expect(condenseTool(tool('ship_order'), 'minimal').inputSchema).toEqual({ type: 'object' });
  });

  it.each([
    [{ a: { type: 'string', 'x-mcp-header': '' } }, 'a: x-mcp-header must be a non-empty string'],
    [{ a: { type: 'string', 'x-mcp-header': { n: 1 } } }, 'a: x-mcp-header must be a non-empty string'],
    [{ a: { type: 'string', 'x-mcp-header': 'Has Space' } }, 'a: x-mcp-header "Has Space" is not an HTTP header name'],
    [{ a: { type: 'string', 'x-mcp-header': 'Rëgion' } }, 'a: x-mcp-header "Rëgion" is not an HTTP header name'],
    [{ a: { type: 'number', 'x-mcp-header': 'N' } }, 'a: x-mcp-header on a number property (string, integer, boolean)'],
    [{ a: { type: 'array', 'x-mcp-header': 'N' } }, 'a: x-mcp-header on a array property (string, integer, boolean)'],
    [
      { a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'same' } },
      'x-mcp-header "Same" is declared twice (also as "same")',
    ],
    [
      { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'I' } } },
      'a.<items>: x-mcp-header outside a chain of properties',
    ],
  ])('an invalid declaration %j leaves the tool out: %s', (properties, reason) => {
    const bad = { name: 'bad', inputSchema: { type: 'object', properties } };
    const checked = validateTools([bad, withHeaders]);
    expect(checked.tools.map((t) => t.name)).toEqual(['deploy']);
    expect(checked.problems).toEqual([`#1 "bad": ${reason}, so it is left out`]);
  });
});

// The client SDK's `_shims` as the bundle resolves it (src/core/connect/client-shims.ts): ajv loaded on first use,
// with the same answers as the SDK's own AjvJsonSchemaValidator, and the SDK's Node value of CORS_IS_POSSIBLE.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import * as sdkShims from '@modelcontextprotocol/client/_shims';
import { describe, expect, it } from 'vitest';
import * as shims from '../../src/core/connect/client-shims.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
} as const;

describe('the client shims', () => {
  it('validate as the SDK validator does, with its error text', () => {
    const lazy = new shims.DefaultJsonSchemaValidator().getValidator<{ name: string }>(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator<{ name: string }>(schema);
    for (const input of [{ name: 'ada', age: 36 }, { name: 'a' }, { age: -1 }, { name: 'bob', age: 1.5 }, 'text'])
      expect(lazy(input)).toEqual(sdk(input));
    expect(lazy({ name: 'a' }).valid).toBe(false);
  });

  it('export every name the SDK shims export, with the same constants', () => {
    expect(
      Object.keys(shims)
        .filter((k) => !k.startsWith('Lazy'))
        .sort(),
    ).toEqual(Object.keys(sdkShims).sort());
    expect(shims.CORS_IS_POSSIBLE).toBe(sdkShims.CORS_IS_POSSIBLE);
  });
});

// serve's JSON Schema validator for the SDK's Server: ajv loaded on first use (src/serve/sdk-shims.ts), and the same
// answers as the SDK's own AjvJsonSchemaValidator.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { describe, expect, it } from 'vitest';
import { DefaultJsonSchemaValidator, LazyAjvValidator, process as shimProcess } from '../../src/serve/sdk-shims.js';

const schema = {
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
} as const;

describe('LazyAjvValidator', () => {
  it('accepts and refuses what the SDK validator does, with its error text', () => {
    const lazy = new LazyAjvValidator().getValidator<{ name: string }>(schema);
    const sdk = new AjvJsonSchemaValidator().getValidator<{ name: string }>(schema);
    for (const input of [{ name: 'ada', age: 36 }, { name: 'a' }, { age: -1 }, { name: 'bob', age: 1.5 }, 'text']) {
      const got = lazy(input);
      expect(got).toEqual(sdk(input));
    }
    expect(lazy({ name: 'ada' })).toMatchObject({ valid: true, data: { name: 'ada' } });
    expect(lazy({ name: 'a' }).valid).toBe(false);
    expect(lazy({ name: 'a' }).errorMessage).toMatch(/name/);
  });

  it('stands in for the SDK shims module: its validator and Node process', () => {
    expect(DefaultJsonSchemaValidator).toBe(LazyAjvValidator);
    expect(shimProcess).toBe(process);
  });
});

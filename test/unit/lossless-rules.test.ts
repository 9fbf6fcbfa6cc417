// Each rule of the lossless level, case by case: what it may remove and, as important, what it must keep.
// These are the cases a mutation run of src/core/condense/lossless.ts showed no test pinned down
// (bench/RESULTS.md, "Mutation testing"); the ajv proof in condense-proof.test.ts checks verdicts on real catalogues.
import { describe, expect, it } from 'vitest';
import { condenseSchemaLossless } from '../../src/core/condense/index.js';
import type { JsonObject } from '../../src/core/types.js';

/** The lossless rewrite of one property's schema, read back from under an object root. */
const prop = (schema: JsonObject, key = 'p'): JsonObject =>
  (
    condenseSchemaLossless({ type: 'object', properties: { [key]: schema } }, 'tool').properties as Record<
      string,
      JsonObject
    >
  )[key]!;

describe('type beside enum/const: dropped only when every value already has the type', () => {
  it.each<[string, JsonObject, JsonObject]>([
    ['boolean values', { type: 'boolean', enum: [true, false] }, { enum: [true, false] }],
    ['a number is not a boolean', { type: 'boolean', enum: [1] }, { type: 'boolean', enum: [1] }],
    ['array values', { type: 'array', enum: [[1]] }, { enum: [[1]] }],
    ['a string is not an array', { type: 'array', enum: ['x'] }, { type: 'array', enum: ['x'] }],
    ['object values', { type: 'object', enum: [{ a: 1 }] }, { enum: [{ a: 1 }] }],
    ['an array is not an object', { type: 'object', enum: [[1]] }, { type: 'object', enum: [[1]] }],
    ['null', { type: 'null', enum: [null] }, { enum: [null] }],
    ['0 is not null', { type: 'null', enum: [0] }, { type: 'null', enum: [0] }],
    ['numbers', { type: 'number', enum: [1.5] }, { enum: [1.5] }],
    ['a numeric string is not a number', { type: 'number', enum: ['1'] }, { type: 'number', enum: ['1'] }],
    ['1.5 is not an integer', { type: 'integer', enum: [1.5] }, { type: 'integer', enum: [1.5] }],
    ['an unknown type name admits nothing', { type: 'decimal', enum: [1] }, { type: 'decimal', enum: [1] }],
    ['a type list', { type: ['string', 'integer'], enum: ['a', 2] }, { enum: ['a', 2] }],
    [
      'a value of no listed type',
      { type: ['string', 'integer'], enum: ['a', 2.5] },
      { type: ['string', 'integer'], enum: ['a', 2.5] },
    ],
    ['a malformed type list stays', { type: ['string', 3], enum: ['a'] }, { type: ['string', 3], enum: ['a'] }],
    ['const of the type', { type: 'string', const: 'a' }, { const: 'a' }],
    ['const of another type', { type: 'string', const: 1 }, { type: 'string', const: 1 }],
    ['no enum or const: type stays', { type: 'string', minLength: 1 }, { type: 'string', minLength: 1 }],
  ])('%s', (_label, schema, expected) => expect(prop(schema)).toEqual(expected));
});

describe('anyOf of bare types becomes a type list', () => {
  it.each<[string, JsonObject, JsonObject]>([
    [
      'merged, in order',
      { anyOf: [{ type: 'string' }, { type: ['integer', 'null'] }] },
      { type: ['string', 'integer', 'null'] },
    ],
    ['duplicates merged into one type', { anyOf: [{ type: 'string' }, { type: 'string' }] }, { type: 'string' }],
    ['an empty anyOf is left alone', { anyOf: [] }, { anyOf: [] }],
    [
      'a branch with more than a type stays',
      { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
      { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] },
    ],
    [
      'a malformed branch type stays',
      { anyOf: [{ type: [1] }, { type: 'null' }] },
      { anyOf: [{ type: [1] }, { type: 'null' }] },
    ],
    [
      'a branch type list with a non-string stays',
      { anyOf: [{ type: ['string', 1] }, { type: 'null' }] },
      { anyOf: [{ type: ['string', 1] }, { type: 'null' }] },
    ],
    [
      'a sibling type would intersect: stays',
      { type: 'string', anyOf: [{ type: 'string' }, { type: 'null' }] },
      { type: 'string', anyOf: [{ type: 'string' }, { type: 'null' }] },
    ],
  ])('%s', (_label, schema, expected) => expect(prop(schema)).toEqual(expected));
});

describe('draft-sensitive schemas skip structural rewrites', () => {
  it.each(['exclusiveMinimum', 'exclusiveMaximum'])(
    'a draft-04 boolean %s keeps `additionalProperties: {}` and the $schema',
    (key) => {
      const schema: JsonObject = {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { type: 'number', minimum: 0, maximum: 9, [key]: true } },
        additionalProperties: {},
      };
      expect(condenseSchemaLossless(schema, 'tool')).toEqual(schema);
    },
  );

  it('without them, `additionalProperties: {}` and a known $schema go', () => {
    expect(
      condenseSchemaLossless(
        { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: {} },
        'tool',
      ),
    ).toEqual({ type: 'object' });
  });

  it('a $schema that is not a string stays, even one that reads as a known dialect', () => {
    const listed = { $schema: ['http://json-schema.org/draft-07/schema#'], type: 'object' } as unknown as JsonObject;
    expect(condenseSchemaLossless(listed, 't')).toEqual(listed);
  });

  it('an unknown or non-string $schema stays', () => {
    expect(condenseSchemaLossless({ $schema: 'https://example.test/my-dialect', type: 'object' }, 't')).toEqual({
      $schema: 'https://example.test/my-dialect',
      type: 'object',
    });
    expect(condenseSchemaLossless({ $schema: 7, type: 'object' }, 't')).toEqual({
      $schema: 7,
      type: 'object',
    });
  });
});

describe('titles', () => {
  it.each(['', ' _ ', 'P'])('a title that is empty or repeats the property name (%j) goes', (title) => {
    expect(prop({ type: 'string', title })).toEqual({ type: 'string' });
  });

  it.each([
    'read_file',
    'read_fileArguments',
    'ReadFileArgs',
    'read_file input',
    'Read File Params',
    'read-file parameters',
    'read_file.request',
    'READ_FILE SCHEMA',
  ])('a root title %j that is the tool name (plus a generic suffix) goes', (title) =>
    expect(condenseSchemaLossless({ type: 'object', title }, 'read_file')).toEqual({ type: 'object' }),
  );

  it('a root title that says something else stays, and so does a tool-name title below the root', () => {
    expect(condenseSchemaLossless({ type: 'object', title: 'File to open' }, 'read_file').title).toBe('File to open');
    const nested = condenseSchemaLossless(
      { type: 'object', properties: { path: { type: 'string', title: 'read_fileArguments' } } },
      'read_file',
    );
    expect((nested.properties as Record<string, JsonObject>).path!.title).toBe('read_fileArguments');
  });
});

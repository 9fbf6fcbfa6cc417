// plainWireResult: a forwarded call's result is written on the wire only when the SDK's 2025 encoding of it is
// plainly itself; anything the SDK's parse could change (or refuse) is left to the SDK's Server.
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ToolResult } from '../../src/serve/runtime-options.js';
import { isPlainResult, plainWireResult } from '../../src/serve/plain-result.js';

const text = (t: string) => ({ type: 'text', text: t });
const wire = (r: unknown) => plainWireResult(r as ToolResult);
/** What the SDK's 2025 parse of a result gives (the object its Server then writes). */
const sdkParse = (r: unknown) =>
  (specTypeSchemas.CallToolResult['~standard'].validate(r) as { value?: unknown; issues?: unknown }).value;

describe('plainWireResult', () => {
  it('text blocks, structuredContent and isError are written as they are, in the SDK parse’s key order', () => {
    const structured = { a: 1, nested: { b: [1, 2] } };
    const out = wire({ isError: false, structuredContent: structured, content: [text('one'), text('')] });
    expect(out).toEqual({ content: [text('one'), text('')], structuredContent: structured, isError: false });
    expect(Object.keys(out!)).toEqual(['content', 'structuredContent', 'isError']);
    expect(JSON.stringify(wire({ content: [{ text: 'x', type: 'text' }] }))).toBe(
      '{"content":[{"type":"text","text":"x"}]}',
    );
    expect(wire({ content: [] })).toEqual({ content: [] });
    expect(wire({ content: [text('boom')], isError: true })).toEqual({ content: [text('boom')], isError: true });
  });

  it('what it accepts the schema accepts too (result-check.ts skips the schema for it)', () => {
    const plain = [
      { content: [] },
      { content: [text('a'), text('b')], isError: true },
      { content: [text('a')], structuredContent: { n: 1, s: 'x', deep: { a: [null] } } },
    ];
    for (const r of plain) {
      expect(wire(r)).toBeDefined();
      expect(specTypeSchemas.CallToolResult['~standard'].validate(r)).not.toHaveProperty('issues');
    }
  });

  it('anything the SDK could encode otherwise is left to it', () => {
    const cases: unknown[] = [
      {},
      { content: 'x' },
      { content: [text('a')], _meta: { k: 1 } },
      { content: [text('a')], resultType: 'complete' },
      { content: [{ ...text('a'), annotations: { priority: 1 } }] },
      { content: [{ ...text('a'), _meta: {} }] },
      { content: [{ type: 'text', text: 7 }] },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [null] },
      { content: [text('a')], isError: 'yes' },
      { content: [text('a')], structuredContent: [1] },
      { content: [text('a')], structuredContent: JSON.parse('{"__proto__":{"x":1}}') as unknown },
    ];
    for (const c of cases) expect(wire(c), JSON.stringify(c)).toBeUndefined();
  });
  it('a result already in the SDK parse’s key order is written as it is: no copy, the SDK’s bytes', () => {
    const inOrder: unknown[] = [
      { content: [] },
      { content: [text('a'), text('b')] },
      { content: [text('a')], structuredContent: { z: 1, a: [2] }, isError: true },
      { content: [text('a')], isError: false },
      // A key whose value is undefined is left out of the JSON wherever it stands.
      { isError: undefined, content: [text('a')] },
    ];
    for (const r of inOrder) {
      expect(wire(r), JSON.stringify(r)).toBe(r);
      expect(JSON.stringify(wire(r))).toBe(JSON.stringify(sdkParse(r)));
    }
  });

  it('a plain result in another key order is written as a copy in the SDK parse’s order, its bytes the SDK’s', () => {
    const reordered: unknown[] = [
      { isError: false, content: [text('a')] },
      { structuredContent: { b: 1, a: 2 }, content: [text('a')] },
      { content: [text('a'), { text: 'b', type: 'text' }] },
      { isError: true, structuredContent: { b: 1 }, content: [{ text: 'x', type: 'text' }] },
    ];
    for (const r of reordered) {
      const out = wire(r);
      expect(out, JSON.stringify(r)).toBeDefined();
      expect(out).not.toBe(r);
      expect(JSON.stringify(out)).toBe(JSON.stringify(sdkParse(r)));
      expect(JSON.stringify(out)).not.toBe(JSON.stringify(r));
    }
  });

  it('isPlainResult (the check, which allocates nothing) says plain exactly when the wire path writes it', () => {
    const all: unknown[] = [
      { content: [] },
      { isError: false, content: [text('a')] },
      { content: [{ text: 'b', type: 'text' }], structuredContent: { n: 1 } },
      { content: [text('a')], _meta: { k: 1 } },
      { content: [{ ...text('a'), annotations: { priority: 1 } }] },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [text('a')], isError: 'yes' },
      { content: [text('a')], structuredContent: [1] },
      { content: [text('a')], structuredContent: JSON.parse('{"__proto__":{"x":1}}') as unknown },
      { content: 'x' },
      {},
    ];
    const plain = all.map((r) => isPlainResult(r as ToolResult));
    expect(plain).toEqual(all.map((r) => wire(r) !== undefined));
    expect(plain).toEqual([true, true, true, false, false, false, false, false, false, false, false]);
  });
});

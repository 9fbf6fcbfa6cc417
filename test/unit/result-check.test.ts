import { describe, expect, it } from 'vitest';
import { resultProblem } from '../../src/serve/result-check.js';

describe('resultProblem', () => {
  it('passes every valid shape of tool result', () => {
    for (const r of [
      { content: [] },
      { content: [{ type: 'text', text: 'a' }], isError: true, _meta: { x: 1 } },
      { structuredContent: { n: 1 } },
      { content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] },
      { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x' } }], vendorKey: true },
    ])
      expect(resultProblem(r)).toBeUndefined();
  });

  it('names the first problem by its place in the result, in one line', () => {
    expect(
      resultProblem({
        content: [
          { type: 'text', text: 'ok' },
          { type: 'image', data: 'AA==' },
        ],
      }),
    ).toBe('content[1].mimeType: expected string, got nothing');
    expect(resultProblem({ content: [{ type: 42 }] })).toBe(
      'content[0].type is 42, not one of "text", "image", "audio", "resource_link", "resource"',
    );
    expect(resultProblem({ content: [], isError: 'yes' })).toBe('isError: expected boolean, received string');
    expect(resultProblem('text')).toMatch(/^the result: /);
  });
});

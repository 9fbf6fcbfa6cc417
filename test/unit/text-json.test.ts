// find_tool's answer written on the stdio wire from its lines' kept escapes (src/serve/text-json.ts): the bytes are
// the SDK's serialisation of the same response, for texts of every kind of character JSON escapes, and for answers
// put together from kept lines over many answers; anything not plainly a text result is left to the SDK's path.
import { serializeMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { budgetFindAnswer, type FindCandidate } from '../../src/serve/find-budget.js';
import { textResult } from '../../src/serve/meta.js';
import { escapedJson, withJsonLiteral, wireResponse } from '../../src/serve/text-json.js';

const sdk = (id: string | number, result: unknown): string =>
  serializeMessage({ jsonrpc: '2.0', id, result } as Parameters<typeof serializeMessage>[0]);

const TEXTS = [
  '',
  'plain',
  '{"results":[\n{"id":"a.b","summary":"quotes \\" and \\\\ backslashes"}\n]}',
  'control \u0000\u0001\u001f\t\r\n\b\f and DEL \u007f',
  'non-ASCII — “quotes” 北京的天气 émoji 😀 pair',
  'lone surrogates \ud800 and \udfff and reversed \udc00\ud800',
  '</script> \u2028 \u2029',
];

describe('wireResponse', () => {
  it('writes the bytes serializeMessage writes, with the literal noted', () => {
    for (const [i, text] of TEXTS.entries())
      for (const id of [i, `req-${i}`, 'quote"d']) {
        const result = textResult(text);
        withJsonLiteral(result.content[0]!, JSON.stringify(text));
        expect(wireResponse(id, result)).toBe(sdk(id, result));
        // A note beside the answer (find_tool's cut notes), not noted itself, escaped as the SDK would.
        result.content.push({ type: 'text', text: `mcp-smart: ${text}` });
        expect(wireResponse(id, result)).toBe(sdk(id, result));
      }
  });

  it('uses the noted literal as it is (the caller vouches for it)', () => {
    const result = textResult('abc');
    withJsonLiteral(result.content[0]!, '"ABC"');
    expect(wireResponse(1, result)).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ABC"}]}}\n',
    );
  });

  it('leaves to the SDK a result with nothing noted, another key, another item or key order', () => {
    const noted = () => {
      const r = textResult('x');
      withJsonLiteral(r.content[0]!, '"x"');
      return r;
    };
    expect(wireResponse(1, textResult('x'))).toBeUndefined();
    const error = textResult('x', true);
    withJsonLiteral(error.content[0]!, '"x"');
    expect(wireResponse(1, error)).toBeUndefined();
    const extra = noted() as Record<string, unknown>;
    extra._meta = { a: 1 };
    expect(wireResponse(1, extra)).toBeUndefined();
    const image = noted() as { content: unknown[] };
    image.content.push({ type: 'image', data: '', mimeType: 'image/png' });
    expect(wireResponse(1, image)).toBeUndefined();
    const reordered = { content: [{ text: 'x', type: 'text' }] };
    withJsonLiteral(reordered.content[0] as { type: 'text'; text: string }, '"x"');
    expect(wireResponse(1, reordered)).toBeUndefined();
    expect(wireResponse(1, { content: [] })).toBeUndefined();
    expect(wireResponse(1, null)).toBeUndefined();
  });
});

describe('budgetFindAnswer json', () => {
  it('is JSON.stringify of the answer text, from fresh and from kept lines, through cuts and notes', () => {
    const candidates: FindCandidate[] = TEXTS.map((t, i) => ({
      brief: { id: `s${i}.tool_${i}`, summary: t },
      ...(i % 2 === 0
        ? { inputSchema: { type: 'object', properties: { q: { type: 'string', description: t } } } }
        : {}),
      kept: { text: [], cost: [] },
    }));
    const count = (t: string): number => Math.ceil(t.length / 4) + 1;
    for (let round = 0; round < 2; round++)
      for (const max of [40, 120, 400, 100_000])
        for (let start = 0; start < candidates.length; start++) {
          const a = budgetFindAnswer(candidates.slice(start), max, count, [
            { server: 'late—“x”', reason: 'r', retryInSeconds: 3 },
          ]);
          expect(a.json).toBe(JSON.stringify(a.text));
        }
    expect(escapedJson('a"b')).toBe('a\\"b');
  });
});

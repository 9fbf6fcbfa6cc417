import { describe, expect, it } from 'vitest';
import { deserializeMessage } from '@modelcontextprotocol/client';
import { readableAnswers } from '../../src/core/connect/answer-fetch.js';
import { refusedAnswer } from '../../src/core/wire/refused-answer.js';

/** What the wire does with a line the SDK's schema refuses. */
function refused(line: string): ReturnType<typeof refusedAnswer> {
  try {
    deserializeMessage(line);
  } catch (e) {
    return refusedAnswer(JSON.parse(line) as unknown, e, deserializeMessage);
  }
  throw new Error(`${line} was read as a message`);
}

describe('refusedAnswer: an answer the SDK refuses is read without extra members, or fails its request', () => {
  it('tolerates "error": null, "result": null beside an error, and unknown keys', () => {
    expect(refused('{"jsonrpc":"2.0","id":1,"result":{"tools":[]},"error":null}')).toEqual({
      kind: 'tolerated',
      message: { jsonrpc: '2.0', id: 1, result: { tools: [] } },
      dropped: ['error'],
    });
    expect(refused('{"jsonrpc":"2.0","id":"a","result":{},"ts":1}')).toMatchObject({
      kind: 'tolerated',
      dropped: ['ts'],
    });
    expect(refused('{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"},"result":null}')).toMatchObject({
      kind: 'tolerated',
      message: { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
    });
  });

  it('turns an unreadable answer into an error answer for its id, saying why', () => {
    const cases: [string, string][] = [
      ['{"jsonrpc":"2.0","id":3,"result":null}', '"result" is null'],
      ['{"jsonrpc":"2.0","id":3,"result":[1]}', '"result" is [1], not an object'],
      ['{"jsonrpc":"1.0","id":3,"result":{}}', '"jsonrpc" is "1.0"'],
      ['{"id":3,"result":{}}', '"jsonrpc" is missing'],
      ['{"jsonrpc":"2.0","id":3,"result":{},"error":{"code":1,"message":"x"}}', 'both a "result" and an "error"'],
      ['{"jsonrpc":"2.0","id":3,"error":{"message":"x"}}', 'integer "code"'],
      ['{"jsonrpc":"2.0","id":3}', 'neither a "result" nor an "error"'],
    ];
    for (const [line, why] of cases) {
      const r = refused(line);
      expect(r?.kind, line).toBe('failed');
      expect(r?.message, line).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32603 } });
      expect((r?.message as { error: { message: string } }).error.message, line).toContain(why);
    }
  });

  it('leaves requests, notifications and id-less lines to the caller', () => {
    expect(refused('{"jsonrpc":"2.0","id":1,"method":"ping","x":1}')).toBeUndefined();
    expect(refused('{"jsonrpc":"2.0","method":"notifications/x","x":1}')).toBeUndefined();
    expect(refused('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}')).toBeUndefined();
  });
});

describe('readableAnswers: HTTP answers read as stdio ones', () => {
  const served = (type: string, chunks: string[]) => async (): Promise<Response> =>
    new Response(
      new ReadableStream({
        start(ctl) {
          for (const c of chunks) ctl.enqueue(new TextEncoder().encode(c));
          ctl.close();
        },
      }),
      { headers: { 'content-type': type } },
    );

  it('rewrites only refused messages of an event stream, whatever the chunking and line ends', async () => {
    const bad = '{"jsonrpc":"2.0","id":5,"result":null}';
    const good = '{"jsonrpc":"2.0","id":6,"result":{}}';
    const stream = `: hi\r\n\r\nid: 1\r\nevent: message\r\ndata: ${bad}\r\n\r\ndata: ${good}\n\n`;
    // Split everywhere, including between a \r and its \n.
    const chunks = [...stream];
    const text = await (await readableAnswers(served('text/event-stream', chunks))('http://x')).text();
    const events = text.split('\n\n').filter((e) => e.includes('data'));
    expect(events[0]).toContain('id: 1');
    expect(events[0]).toContain('"id":5,"error":{"code":-32603');
    expect(events[1]).toBe(`data: ${good}`);
  });

  it('rewrites a refused JSON body and passes a readable one untouched', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"result":{},"error":null}';
    const read = await (await readableAnswers(served('application/json', [body]))('http://x')).json();
    expect(read).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const good = '{"jsonrpc":"2.0","id":1,"result":{"a":1}}';
    expect(await (await readableAnswers(served('application/json', [good]))('http://x')).text()).toBe(good);
  });
});

import { describe, expect, it } from 'vitest';
import { deserializeMessage } from '@modelcontextprotocol/server';
import { readMessage } from '../../src/core/wire/jsonrpc-message.js';
import { unreadableMessage } from '../../src/core/wire/unreadable-message.js';

/** What the wire does with a line: the SDK's refusal, then our answer. */
function refused(line: string): ReturnType<typeof unreadableMessage> {
  try {
    readMessage(line, deserializeMessage);
  } catch (e) {
    return unreadableMessage(line, e);
  }
  throw new Error(`${line} was read as a message`);
}

describe('unreadableMessage: the answer JSON-RPC owes a line that is not a message', () => {
  it('answers what asked something, with its id when it can be read, and never a notification or a response', () => {
    const cases: [string, number | undefined, string | number | null | undefined][] = [
      ['not json', -32700, null],
      ['{"jsonrpc":"2.0","id":1', -32700, null],
      ['[{"jsonrpc":"2.0","id":2,"method":"ping"}]', -32600, null],
      ['"a string"', -32600, null],
      ['{"jsonrpc":"1.0","id":3,"method":"ping"}', -32600, 3],
      ['{"id":"x","method":"ping"}', -32600, 'x'],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', -32600, null],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', -32600, null],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', -32600, 1.5],
      ['{"jsonrpc":"2.0","id":4,"method":"tools/list","params":5}', -32600, 4],
      ['{"jsonrpc":"2.0","method":"notifications/x","params":5}', undefined, undefined],
      ['{"jsonrpc":"2.0","id":7,"result":5}', undefined, undefined],
      ['{"jsonrpc":"2.0","id":7,"error":"bad"}', undefined, undefined],
      // No method name and nothing of a response: it asked something (its id, when it has one, gets the answer).
      ['{"jsonrpc":"2.0","id":5,"method":5}', -32600, 5],
      ['{"jsonrpc":"2.0","id":6}', -32600, 6],
      ['{"jsonrpc":"2.0","method":5}', -32600, null],
    ];
    for (const [line, code, id] of cases) {
      const { reason, answer } = refused(line);
      expect(reason.length, line).toBeGreaterThan(10);
      expect(answer?.error.code, line).toBe(code);
      expect(answer?.id, line).toBe(id);
      if (answer) expect(answer.error.message).toBe(`mcp-smart: ${reason}`);
    }
  });

  it('names the broken rule', () => {
    expect(refused('{"jsonrpc":"1.0","id":3,"method":"ping"}').reason).toContain('"jsonrpc" is "1.0", not "2.0"');
    expect(refused('{"id":3,"method":"ping"}').reason).toContain('"jsonrpc" is missing');
    expect(refused('{"jsonrpc":"2.0","id":true,"method":"ping"}').reason).toContain('neither a string nor an integer');
    expect(refused('{"jsonrpc":"2.0","id":4,"method":"x","params":[1]}').reason).toContain('"params" is [1]');
    expect(refused('[]').reason).toContain('batch');
  });
});

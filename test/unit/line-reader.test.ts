import { describe, expect, it } from 'vitest';
import { LineReader, messageIdOf, topLevelValueAt } from '../../src/core/wire/line-reader.js';

function reader(maxBytes: number) {
  const lines: string[] = [];
  const oversize: { head: string; tail: string; bytes: number }[] = [];
  const r = new LineReader({ maxBytes, onLine: (l) => lines.push(l), onOversize: (o) => oversize.push(o) });
  return { r, lines, oversize };
}

describe('LineReader', () => {
  it('joins a line split over many chunks, strips \\r, and reads several lines from one chunk', () => {
    const { r, lines } = reader(100);
    for (const c of ['{"a":', '1', '}\r\n{"b"', ':2}\n{"c":3}\n']) r.push(Buffer.from(c));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('a line over the limit is reported once with its first and last bytes and size, and skipped; the next line is read', () => {
    const { r, lines, oversize } = reader(10);
    r.push(Buffer.from('{"id":7,"x":"'));
    r.push(Buffer.from('y'.repeat(30)));
    r.push(Buffer.from('"}\nok\n'));
    expect(oversize).toEqual([{ head: '{"id":7,"x":"', tail: '{"id":7,"x":"' + 'y'.repeat(30) + '"}', bytes: 45 }]);
    expect(lines).toEqual(['ok']);
  });

  it('a line of exactly the limit is read', () => {
    const { r, lines, oversize } = reader(5);
    r.push(Buffer.from('12345\n'));
    expect(lines).toEqual(['12345']);
    expect(oversize).toEqual([]);
  });

  it('keeps a multi-byte character split across chunks', () => {
    const { r, lines } = reader(100);
    const bytes = Buffer.from('"é"\n');
    r.push(bytes.subarray(0, 2));
    r.push(bytes.subarray(2));
    expect(lines).toEqual(['"é"']);
  });
});

describe('messageIdOf', () => {
  it('reads a top-level id at the start, not one nested in params', () => {
    expect(messageIdOf('{"jsonrpc":"2.0","id":12,"method":"x"', '')).toBe(12);
    expect(messageIdOf('{"method":"x","params":{"id":5,"t":"…', '"}},"jsonrpc":"2.0","id":"abc"}')).toBe('abc');
    expect(messageIdOf('{"method":"x","params":{"id":5,"t":"…', '"}}}')).toBeUndefined();
    expect(messageIdOf('{"params":{"a":"\\"id\\":3"},"id":"q\\"1","x":', '')).toBe('q"1');
  });
});

describe('topLevelValueAt', () => {
  it('finds a top-level key, not one nested in a value or a string that only holds the key', () => {
    const request = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"x":"';
    expect(request.slice(topLevelValueAt(request, 'method'))).toMatch(/^"tools\/call"/);
    const result = '{"result":{"_meta":{"request":{"method":"GET"}},"content":[{"type":"text","text":"abc';
    expect(topLevelValueAt(result, 'method')).toBe(-1);
    expect(topLevelValueAt('{"note":"\\"method\\": no","id":1}', 'method')).toBe(-1);
    expect(topLevelValueAt('{"x":"method","y":[{"method":1}]', 'method')).toBe(-1);
    expect(topLevelValueAt('{"x":[1,2], "method" : "m"}', 'method')).toBe(23);
    expect(topLevelValueAt('{"a.b":1}', 'a.b')).toBe(7);
    expect(topLevelValueAt('{"axb":1}', 'a.b')).toBe(-1);
  });
});

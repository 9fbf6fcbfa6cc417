// A stack overflow while a list page is read (a validator recursing through a schema thousands of levels deep,
// in the SDK or ours) fails that server's listing with a protocol error naming the method and the remedy.
import { describe, expect, it } from 'vitest';
import { listAllPages } from '../../src/core/connect/list.js';
import { SmartError } from '../../src/process/errors.js';

/** A naive recursive walk, as a schema validator does it: overflows the real call stack on deep input. */
const walk = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(walk)) : 0;

describe('listAllPages and a stack overflow', () => {
  it('is CONNECT_PROTOCOL (exit 3) naming tools/list and what to do', async () => {
    const deep = JSON.parse('{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)) as unknown;
    const request = async (): Promise<Record<string, unknown>> => ({ tools: [], depth: walk(deep) });
    const e = await listAllPages(request, 'tools/list', 'tools', 10).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SmartError);
    expect((e as SmartError).code).toBe('CONNECT_PROTOCOL');
    expect((e as SmartError).exitCode).toBe(3);
    expect((e as SmartError).message).toBe(
      "tools/list failed: its answer is nested too deeply to read (the call stack overflowed); ask the server's maintainer to flatten its schemas",
    );
    expect((e as SmartError).cause).toBeInstanceOf(RangeError);
  });
});

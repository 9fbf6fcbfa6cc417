// Listen streams bounded per client (issue 41): over HTTP counted per client until each response closes
// (listen-limit.ts), over a 2025 stdio connection (legacy-listen.ts) as many open as an HTTP client may keep.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LegacyListens } from '../../src/serve/legacy-listen.js';
import { ListenStreams, MAX_LISTENS_PER_CLIENT } from '../../src/serve/listen-limit.js';

const response = (): ServerResponse => new EventEmitter() as unknown as ServerResponse;

describe('ListenStreams', () => {
  it('past its bound a client is refused while another is not; a closed stream gives its place back, and nothing is kept at 0', () => {
    const streams = new ListenStreams(2);
    const a = [response(), response()];
    expect(a.map((r) => streams.take('a', r))).toEqual([true, true]);
    expect(streams.take('a', response())).toBe(false);
    expect(streams.take('b', response())).toBe(true);
    a[0]!.emit('close');
    expect(streams.of('a')).toBe(1);
    expect(streams.take('a', response())).toBe(true);
    expect(streams.refusal()).toContain('already has 2 subscriptions/listen streams open, the limit per client');
  });
});

describe('LegacyListens (2025 stdio)', () => {
  it(`keeps ${MAX_LISTENS_PER_CLIENT} open; the next is refused naming the limit; a cancelled one frees its place`, async () => {
    const sent: Record<string, unknown>[] = [];
    const listens = new LegacyListens(
      (m) => (sent.push(m), Promise.resolve()),
      () => ({ tools: { listChanged: true } }),
    );
    const listen = (id: number) =>
      listens.take({
        jsonrpc: '2.0',
        id,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true } },
      });
    for (let id = 1; id <= MAX_LISTENS_PER_CLIENT; id++) expect(listen(id)).toBe(true);
    expect(sent.filter((m) => m.method === 'notifications/subscriptions/acknowledged')).toHaveLength(
      MAX_LISTENS_PER_CLIENT,
    );
    expect(listen(1000)).toBe(true);
    expect(sent.at(-1)).toMatchObject({ id: 1000, error: { code: -32603 } });
    expect(JSON.stringify(sent.at(-1))).toContain('the limit per client');
    listens.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(listen(1001)).toBe(true);
    expect(sent.at(-1)).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
  });
});

// The resume of a 2025 call's stream (src/serve/http-resume.ts), over real HTTP on loopback: the events of a call's
// stream carry a signed id naming the call; a replica with the same key answers a GET resuming from it with the
// call's error result (its id the call's), the replica that answered the call says 405; an id for another session or
// subject, altered, or signed with a key not held is not answered (the request goes on as before).
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STREAM_GONE_TEXT, StreamResume, withEventIds } from '../../src/serve/http-resume.js';
import { StateKeys } from '../../src/serve/replica/seal.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('mcp-smart-resume-');
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const SECRET = 'resume-secret-0123456789abcdefghijklmnopqrstuvwxyz';
let n = 0;
function keys(...lines: string[]): StateKeys {
  const file = join(dir, `keys-${++n}`);
  writeFileSync(file, lines.join('\n'));
  return StateKeys.fromFile(file, '--state-key-file');
}

/**
 * A replica in miniature: POST writes a call's stream (an ask unless `?plain`, then the answer unless `?cut`: then it
 * waits to be cut), marked by `resume`; GET goes to `resume.answer`, else 404 as serve's session lookup would.
 */
async function replica(resume: StreamResume): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const session = String(req.headers['mcp-session-id']);
    const subject = req.headers['x-subject'] as string | undefined;
    if (req.method === 'GET') {
      if (!resume.answer(req, res, session, subject)) res.writeHead(404).end('session not found');
      return;
    }
    resume.mark(res, session, 7, subject);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': keepalive\n\n');
    if (!req.url?.includes('plain'))
      res.write(Buffer.from('event: message\ndata: {"jsonrpc":"2.0","id":1,"method":"elicitation/create"}\n\n'));
    if (req.url?.includes('cut')) return;
    // As the SDK's Node adapter does: each event with write(), then end().
    res.write('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
    res.end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const ids = (text: string): string[] => [...text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);

async function resumeFrom(url: string, lastEventId: string, session = 's1', subject?: string) {
  const headers: Record<string, string> = { 'last-event-id': lastEventId, 'mcp-session-id': session };
  if (subject) headers['x-subject'] = subject;
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe('withEventIds', () => {
  it('gives each request or notification the id; leaves comments, answers and events that have an id alone', () => {
    const ask = 'data: {"jsonrpc":"2.0","id":1,"method":"elicitation/create"}';
    const note = 'event: message\ndata: {"method":"notifications/progress","jsonrpc":"2.0"}';
    const answer = 'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}';
    expect(withEventIds(': keepalive\n\n', 'X')).toBe(': keepalive\n\n');
    expect(withEventIds(`event: message\n${ask}\n\n`, 'X')).toBe(`id: X\nevent: message\n${ask}\n\n`);
    expect(withEventIds(`${answer}\n\n`, 'X')).toBe(`${answer}\n\n`);
    expect(withEventIds(`id: 4\n${ask}\n\n`, 'X')).toBe(`id: 4\n${ask}\n\n`);
    expect(withEventIds(`${ask}\n\n${note}\n\n${answer}\n\n`, 'X')).toBe(
      `id: X\n${ask}\n\nid: X\n${note}\n\n${answer}\n\n`,
    );
  });
});

describe('the resume of a call’s stream', () => {
  it('any replica with the key answers the call’s error result; the one that answered the call says 405', async () => {
    const holder = await replica(new StreamResume(keys(SECRET)));
    const other = await replica(new StreamResume(keys(SECRET)));
    const stream = await (await fetch(holder, { method: 'POST', headers: { 'mcp-session-id': 's1' } })).text();
    // The ask carries the call's id, the answer none.
    const [first, ...more] = ids(stream);
    expect(more).toEqual([]);
    expect(first).toMatch(/^msr1\.[\w-]+\.\d+\.[0-9a-f]{64}$/);
    expect(stream.startsWith(`: keepalive\n\nid: ${first}\nevent: message\ndata: {"jsonrpc"`)).toBe(true);

    const answered = await resumeFrom(other, first!);
    expect(answered.status).toBe(200);
    expect(answered.type).toBe('text/event-stream');
    expect(ids(answered.text)).toEqual(['mcp-smart-answered']);
    const data = JSON.parse(/^data: (.*)$/m.exec(answered.text)![1]!) as Record<string, unknown>;
    expect(data).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: STREAM_GONE_TEXT }], isError: true },
    });
    // Resumed again from that answer: nothing more, anywhere.
    expect((await resumeFrom(other, 'mcp-smart-answered')).status).toBe(405);
    // The holder answered this call: its resume finds nothing more.
    expect((await resumeFrom(holder, first!)).status).toBe(405);
  });

  it('a call answered at once: its stream is as before, without ids', async () => {
    const url = await replica(new StreamResume(keys(SECRET)));
    const res = await fetch(`${url}?plain`, { method: 'POST', headers: { 'mcp-session-id': 's1' } });
    expect(await res.text()).toBe(': keepalive\n\nevent: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
  });

  it('a call whose stream was cut on a live holder is answered with the error result there', async () => {
    const holder = await replica(new StreamResume(keys(SECRET)));
    const aborted = new AbortController();
    const res = await fetch(`${holder}?cut`, {
      method: 'POST',
      headers: { 'mcp-session-id': 's1' },
      signal: aborted.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('data:')) text += new TextDecoder().decode((await reader.read()).value);
    aborted.abort();
    const [id] = ids(text);
    await new Promise((r) => setTimeout(r, 100));
    const again = await resumeFrom(holder, id!);
    expect(again.status).toBe(200);
    expect(again.text).toContain('"isError":true');
  });

  it('is not answered for another session or subject, when altered, or under a key not held', async () => {
    const resume = new StreamResume(keys(SECRET));
    const url = await replica(resume);
    const id = resume.eventId('s1', 'call-1', 'alice');
    expect((await resumeFrom(url, id, 's1', 'alice')).text).toContain('"id":"call-1"');
    expect((await resumeFrom(url, id, 's2', 'alice')).status).toBe(404);
    expect((await resumeFrom(url, id, 's1', 'bob')).status).toBe(404);
    expect((await resumeFrom(url, id, 's1')).status).toBe(404);
    const parts = id.split('.');
    const forged = Buffer.from(JSON.stringify({ s: 's1', r: 'other', u: '' })).toString('base64url');
    expect((await resumeFrom(url, [parts[0], forged, parts[2], parts[3]].join('.'), 's1')).status).toBe(404);
    expect((await resumeFrom(url, 'msr1.e30.1.2', 's1')).status).toBe(404);
    const foreign = new StreamResume(keys('another-secret-0123456789abcdefghijklmnopqrstuvw'));
    expect((await resumeFrom(url, foreign.eventId('s1', 'call-1', 'alice'), 's1', 'alice')).status).toBe(404);
    // A rotated key still listed: ids it signed are answered.
    const rotated = await replica(new StreamResume(keys('new-secret-0123456789abcdefghijklmnopqrstuvwxyz', SECRET)));
    expect((await resumeFrom(rotated, id, 's1', 'alice')).status).toBe(200);
  });
});

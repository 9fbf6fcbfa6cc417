// A server behind serve that changes its tools while answering a call sends tools/list_changed before its answer
// (fixtures/servers/misbehaving/client-facing.mjs --grow-after-call). Connected directly, a client hears the
// notification first and re-lists before it carries the result to its model; through serve it must hear serve's
// own tools/list_changed before the call's answer too, and the list it then asks for must hold the new tool.
// (The real clients' side of this, judged by what they send the model: serve-client-turns.test.ts.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { closeRawStdio, openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { tempDir } from '../helpers/temp.js';

beforeAll(requireBuild);
const open: RawStdio[] = [];
afterEach(() => closeRawStdio(open));

const toolNames = (reply: { result?: unknown }): string[] =>
  ((reply.result as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);

describe('serve passes on a list change in the order the server sent it', () => {
  it('tools/list_changed during a call reaches the client before the call answer, and the next list holds the new tool', async () => {
    const dir = tempDir('mcp-smart-list-order-');
    const config = join(dir, 'servers.json');
    const server = {
      command: process.execPath,
      args: [fixture('servers', 'misbehaving', 'client-facing.mjs'), '--names', '["first"]', '--grow-after-call'],
    };
    writeFileSync(config, JSON.stringify({ servers: { grows: server } }));
    const raw = openRawStdio(process.execPath, [BIN, '--config', config, 'serve', '--mode', 'tools', '--no-learn'], {
      PATH: process.env.PATH,
      HOME: dir,
      NO_COLOR: '1',
    });
    open.push(raw);
    await raw.initialize(60_000);
    expect(toolNames(await raw.request('tools/list', {}, 60_000))).toEqual(['first']);
    const changes = (): number =>
      raw.notifications.filter((n) => n.method === 'notifications/tools/list_changed').length;
    const before = changes();
    const answer = await raw.request('tools/call', { name: 'first', arguments: {} }, 60_000);
    // Read at the moment the answer arrived: the notification came first on serve's stdout.
    const heardBeforeAnswer = changes() - before;
    expect(JSON.stringify(answer.result)).toContain('ran first');
    expect(heardBeforeAnswer).toBe(1);
    expect(toolNames(await raw.request('tools/list', {}, 60_000))).toEqual(['first', 'grown_tool']);
    expect(JSON.stringify((await raw.request('tools/call', { name: 'grown_tool', arguments: {} })).result)).toContain(
      'ran grown_tool',
    );
  }, 120_000);
});

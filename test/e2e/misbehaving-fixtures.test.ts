// The misbehaving fixture servers do what their headers say, seen through a bare JSON-RPC client (no SDK
// validation in between): the serve and harden tests build on these behaviours, so each is pinned here.
import { type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import { openRawStdio, type RawStdio } from '../helpers/raw-stdio.js';
import { startHttpFixture } from '../helpers/spawn-cli.js';

const bad = (name: string) => fixture('servers', 'misbehaving', name);
const catalogServer = fixture('servers', 'catalog-server.mjs');
const catalog = (name: string) => fixture('servers', 'catalogs', 'hostile', name);

let open: RawStdio[] = [];
const httpChildren: ChildProcess[] = [];
function start(args: string[], env?: NodeJS.ProcessEnv): RawStdio {
  const s = openRawStdio(process.execPath, args, env);
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open) s.kill();
  open = [];
});
afterAll(() => {
  for (const c of httpChildren) c.kill('SIGKILL');
});

interface Tool {
  name: unknown;
  description?: unknown;
  title?: unknown;
  inputSchema?: unknown;
}
const toolsOf = (r: { result?: unknown }) => (r.result as { tools: Tool[] }).tools;

describe('call-faults', () => {
  it('crash_mid_call: reports progress, then the process exits 70 with a fatal stderr line and no answer', async () => {
    const s = start([bad('call-faults.mjs')]);
    await s.initialize();
    expect(toolsOf(await s.request('tools/list')).map((t) => t.name)).toEqual([
      'crash_mid_call',
      'hang_forever',
      'echo',
    ]);
    const call = s.request('tools/call', { name: 'crash_mid_call', arguments: {}, _meta: { progressToken: 'p1' } });
    await expect(call).rejects.toThrow('server exited (70) before answering');
    expect(await s.exited).toBe(70);
    expect(s.notifications).toEqual([
      { method: 'notifications/progress', params: { progressToken: 'p1', progress: 1 } },
    ]);
    expect(s.stderr()).toContain('fatal: worker crashed while handling crash_mid_call');
  });

  it('hang_forever: never answers, even after a cancellation, while echo keeps answering', async () => {
    const s = start([bad('call-faults.mjs')]);
    await s.initialize();
    const hung = s.request('tools/call', { name: 'hang_forever', arguments: {} }, 800);
    s.notify('notifications/cancelled', { requestId: 2, reason: 'test' });
    await expect(hung).rejects.toThrow('no answer to tools/call within 800 ms');
    const echo = await s.request('tools/call', { name: 'echo', arguments: { text: 'still here' } });
    expect(echo.result).toEqual({ content: [{ type: 'text', text: 'still here' }] });
    expect(s.child.exitCode).toBeNull();
  });
});

describe('servers that never start', () => {
  it('crash-on-start exits 1 with its reason on stderr before answering initialize', async () => {
    const s = start([bad('crash-on-start.mjs')]);
    await expect(s.initialize()).rejects.toThrow(/server exited \(1\)/);
    expect(s.stderr()).toContain('FIXTURE_API_URL is not set');
  });

  it('hang never answers initialize and stays alive', async () => {
    const s = start([bad('hang.mjs')]);
    await expect(s.initialize(800)).rejects.toThrow('no answer to initialize within 800 ms');
    expect(s.child.exitCode).toBeNull();
  });
});

describe('stdout-flood', () => {
  it('answers through a megabyte of non-JSON stdout lines and keeps printing them', async () => {
    const s = start([bad('stdout-flood.mjs'), '--mb', '1']);
    const init = await s.initialize(30_000);
    expect((init.result as { serverInfo: { name: string } }).serverInfo.name).toBe('tiny');
    const before = s.noiseLines();
    expect(before).toBeGreaterThanOrEqual(1_000);
    expect(toolsOf(await s.request('tools/list'))).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 100));
    expect(s.noiseLines()).toBeGreaterThan(before);
  });
});

describe('optional-lists-fail', () => {
  it('method-not-found: tools work, prompts/list and resources/list answer -32601 though advertised', async () => {
    const s = start([bad('optional-lists-fail.mjs')]);
    const init = await s.initialize();
    expect((init.result as { capabilities: object }).capabilities).toMatchObject({
      tools: {},
      prompts: {},
      resources: {},
    });
    expect(toolsOf(await s.request('tools/list')).map((t) => t.name)).toEqual(['lookup_issue', 'list_projects']);
    expect((await s.request('prompts/list')).error?.code).toBe(-32601);
    expect((await s.request('resources/list')).error?.code).toBe(-32601);
    expect((await s.request('resources/templates/list')).error?.code).toBe(-32601);
    const call = await s.request('tools/call', { name: 'list_projects', arguments: {} });
    expect(call.result).toEqual({ content: [{ type: 'text', text: 'called list_projects' }] });
  });

  it('internal: the failing lists answer -32603 naming the unreachable backend; --which picks them', async () => {
    const s = start([bad('optional-lists-fail.mjs'), '--error', 'internal', '--which', 'prompts']);
    await s.initialize();
    expect(toolsOf(await s.request('tools/list'))).toHaveLength(2);
    const prompts = await s.request('prompts/list');
    expect(prompts.error?.code).toBe(-32603);
    expect(prompts.error?.message).toContain('ECONNREFUSED');
    expect((await s.request('resources/list')).result).toEqual({ resources: [] });
  });
});

describe('catalogs with hostile data (served by catalog-server.mjs)', () => {
  it('wrong-field-types: descriptions, titles and names of the wrong type arrive as sent', async () => {
    const s = start([catalogServer, catalog('wrong-field-types.json')]);
    await s.initialize();
    const tools = toolsOf(await s.request('tools/list'));
    expect(tools.map((t) => t.name)).toEqual([
      'well_formed_first',
      'numeric_description',
      'object_description',
      'null_description',
      'object_title',
      null,
      ['array', 'name'],
      'well_formed_second',
    ]);
    expect(tools.map((t) => (t.description === null ? 'null' : typeof t.description))).toEqual([
      'string',
      'number',
      'object',
      'null',
      'string',
      'string',
      'string',
      'string',
    ]);
    expect(tools[4]!.title).toEqual({ text: 'Title as an object' });
  });

  it('prototype-names: tools, prompts and schema properties named __proto__, constructor, …', async () => {
    const s = start([catalogServer, catalog('prototype-names.json')]);
    await s.initialize();
    const tools = toolsOf(await s.request('tools/list'));
    expect(tools.map((t) => t.name)).toEqual([
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'valueOf',
      'ordinary_tool',
    ]);
    const props = (tools[0]!.inputSchema as { properties: object }).properties;
    expect(Object.keys(props)).toEqual(['__proto__', 'constructor']);
    const prompts = (await s.request('prompts/list')).result as { prompts: { name: string }[] };
    expect(prompts.prompts.map((p) => p.name)).toEqual(['__proto__', 'constructor']);
  });

  it('terminal-escapes: ESC, BEL, CR and BS reach the client raw in names, titles, descriptions, instructions', async () => {
    const s = start([catalogServer, catalog('terminal-escapes.json')]);
    const init = await s.initialize();
    expect((init.result as { instructions: string }).instructions).toContain('\x1b[2J');
    const tools = toolsOf(await s.request('tools/list'));
    expect(tools[0]!.name).toBe('clear\x1b[2J\x1b[Hscreen');
    expect(tools[1]!.title).toBe('\x1b]0;pwned window title\x07');
    expect(tools[2]!.description).toContain('\x1b]8;;https://attacker.invalid/');
    expect(tools[4]!.description).toContain('\r');
    expect(tools[4]!.description).toContain('\b');
    expect(JSON.stringify(tools[5])).not.toMatch(/\\u00(1b|07|08|0d)/);
  });
});

describe('deep-schema', () => {
  it('serves an input schema nested 2,500 levels deep beside a shallow tool', async () => {
    const s = start([bad('deep-schema.mjs')]);
    await s.initialize();
    const tools = toolsOf(await s.request('tools/list'));
    expect(tools.map((t) => t.name)).toEqual(['deeply_nested', 'shallow']);
    let depth = 0;
    let node = tools[0]!.inputSchema as { properties?: { child?: unknown } };
    while (node.properties?.child) {
      node = node.properties.child;
      depth++;
    }
    expect(depth).toBe(2_500);
  });
});

describe('echo-secret', () => {
  const SECRET = 'planted-secret-7f3a9c';

  it('stdio: the env value comes back on stderr, in an isError result and in a JSON-RPC error', async () => {
    const s = start([bad('echo-secret.mjs'), '--env', 'PLANTED_TOKEN'], { ...process.env, PLANTED_TOKEN: SECRET });
    await s.initialize();
    expect(s.stderr()).toContain(`PLANTED_TOKEN=${SECRET}`);
    const leak = await s.request('tools/call', { name: 'leak', arguments: {} });
    expect(JSON.stringify(leak.result)).toContain(SECRET);
    expect((leak.result as { isError: boolean }).isError).toBe(true);
    const rpc = await s.request('tools/call', { name: 'leak_rpc', arguments: {} });
    expect(rpc.error?.message).toContain(SECRET);
  });

  it('http: a 401 body quotes the header value without its Bearer prefix', async () => {
    const url = await startHttpFixture(
      bad('echo-secret.mjs'),
      ['--http', '0', '--echo-header', 'Authorization'],
      httpChildren,
    );
    const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.text()).toBe(`invalid credentials: ${SECRET}\n`);
  });
});

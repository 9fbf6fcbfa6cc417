// Issue 36: a snapshot written for CI reflects what the servers answer now. The server here reads its tools from a
// catalog file beside its script (not an argument, so not part of its identity): the one change the tool-list cache
// cannot see. `dump -o`, `dump` under CI=true and `check` list it anew; `--cache` asks for the cached list.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-gates-fresh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SERVER = `import { readFileSync } from 'node:fs';
import { createCatalogServer, serve } from ${JSON.stringify(fixture('servers', 'lib.mjs'))};
const catalog = JSON.parse(readFileSync(new URL('./catalog.json', import.meta.url), 'utf8'));
await serve(() => createCatalogServer(catalog, {}), {});
`;

function catalog(description: string): void {
  const doc = {
    serverInfo: { name: 'words', version: '1.0.0' },
    tools: [{ name: 'lookup', description, inputSchema: { type: 'object', properties: { word: { type: 'string' } } } }],
  };
  writeFileSync(join(dir, 'srv', 'catalog.json'), JSON.stringify(doc));
}

const description = (file: string): string =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { servers: { tools: { description: string }[] }[] }).servers[0]!
    .tools[0]!.description;

describe('gates list fresh: dump -o, dump under CI=true and check never answer from the tool-list cache', () => {
  it('sees a change the cache key cannot, unless --cache asks for the cached list', async () => {
    mkdirSync(join(dir, 'srv'));
    writeFileSync(join(dir, 'srv', 'server.mjs'), SERVER);
    catalog('Looks up a word.');
    const config = join(dir, 'mcp.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { words: { command: process.execPath, args: [join(dir, 'srv', 'server.mjs')] } } }),
    );
    const env = { HOME: join(dir, 'home'), NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache') };
    const cli = (argv: string[], extra: Record<string, string> = {}) =>
      runCli(['-c', config, ...argv], { cwd: dir, env: { ...env, ...extra } });
    const tokens = async (): Promise<number> => {
      const r = await cli(['audit', '--json']);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { totals: { tokens: { full: number } } }).totals.tokens.full;
    };

    const before = await tokens();
    const grown = `Looks up a word in the dictionary and returns every sense, with examples and the etymology.`;
    catalog(grown);
    // A command that is no gate still answers from the cache (the limit this test is about).
    expect(await tokens()).toBe(before);

    const cached = await cli(['--cache', 'dump', '-o', 'cached.json']);
    expect(cached.code, cached.stderr).toBe(0);
    expect(cached.stderr).toContain('from cache');
    expect(description('cached.json')).toBe('Looks up a word.');

    const plain = await cli(['dump']);
    expect(plain.stderr).toContain('from cache');
    const ci = await cli(['dump'], { CI: 'true' });
    expect(ci.code, ci.stderr).toBe(0);
    expect(ci.stderr).not.toContain('from cache');
    expect(
      (JSON.parse(ci.stdout) as { servers: { tools: { description: string }[] }[] }).servers[0]!.tools[0]!.description,
    ).toBe(grown);

    const out = await cli(['dump', '-o', 'fresh.json']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).not.toContain('from cache');
    expect(description('fresh.json')).toBe(grown);
    // What the gate listed is stored: the next audit starts from the current list.
    const after = await tokens();
    expect(after).toBeGreaterThan(before);

    const update = await cli(['check', '--update']);
    expect(update.code, update.stderr).toBe(0);
    catalog(`${grown} ${'It also lists rhymes, translations and usage notes for every sense it finds. '.repeat(3)}`);
    const gate = await cli(['check']);
    expect(gate.code, gate.stdout).toBe(1);
    expect(gate.stdout).toContain(`${after} → `);
  }, 60_000);
});

// Client configs that used to be misread silently or fail the wrong way (fixtures/configs/hard-*).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const CONFIGS = (...p: string[]): string => fixture('configs', ...p);
const EMPTY_HOME = CONFIGS('home-empty');
const servers = async (cwd: string, home = EMPTY_HOME, extra: string[] = []) =>
  runCli([...extra, 'servers', '--json'], { cwd, env: { HOME: home, NO_COLOR: '1' } });

describe('client config hard cases', () => {
  it('hard-url-not-a-url: a literal "url" that is not one is exit 2 naming the file and key (like --url)', async () => {
    const r = await servers(CONFIGS('hard-url-not-a-url'));
    expect(r.code).toBe(2);
    const message = (JSON.parse(r.stdout) as { error: { message: string } }).error.message;
    expect(message).toContain(join(CONFIGS('hard-url-not-a-url'), '.mcp.json'));
    expect(message).toContain('mcpServers.remote.url');
    expect(message).toContain('is not an http:// or https:// URL');
  });

  it("hard-server-key-typo: a near-miss key warns with did-you-mean; another client's own key passes", async () => {
    const r = await servers(CONFIGS('hard-server-key-typo'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('mcpServers.files.enviroment: unknown key "enviroment" is ignored. Did you mean "env"?');
    expect(r.stderr).not.toContain('alwaysAllow');
  });

  it('hard-proto-server: servers named __proto__ and constructor are listed like any other', async () => {
    const r = await servers(CONFIGS('hard-proto-server'));
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name).sort();
    expect(names).toEqual(['__proto__', 'constructor', 'plain']);
    const debug = await servers(CONFIGS('hard-proto-server'), EMPTY_HOME, ['--debug']);
    expect(debug.code, debug.stderr).toBe(0);
  });

  it('hard-broken-user-config: a broken user-level file is a warning; the project config still works', async () => {
    const dir = CONFIGS('hard-broken-user-config');
    const r = await servers(join(dir, 'project'), join(dir, 'home'));
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name);
    expect(names).toEqual(['project-server']);
    expect(r.stderr).toContain(join(dir, 'home', '.cursor', 'mcp.json'));
    expect(r.stderr).toContain('This user-level file was skipped');
    // Named with --config, the same file is fatal.
    const named = await servers(join(dir, 'project'), join(dir, 'home'), [
      '--config',
      join(dir, 'home', '.cursor', 'mcp.json'),
    ]);
    expect(named.code).toBe(2);
  });
});

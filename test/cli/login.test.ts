// `login` and `logout` in-process: what they refuse before any browser or network is involved.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';

const home = mkdtempSync(join(tmpdir(), 'mcp-smart-login-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const REMOTE = ['--url', 'http://127.0.0.1:9/mcp', '--name', 'remote'];

describe('login / logout', () => {
  it('login names a stdio server: exit 2, login is for remote servers', async () => {
    const r = await runCli(['--stdio', 'node server.js', '--name', 'local', 'login', 'local']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcp-smart: local is a stdio server; login is for remote (HTTP/SSE) servers behind OAuth.\n');
  });

  it('login without a terminal never starts the default browser opener (exit 3, says what to do)', async () => {
    const r = await runCli([...REMOTE, 'login', 'remote']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'mcp-smart: will not open a browser without a terminal. Pass --auth-open none to print the authorization URL instead, or in CI give remote a header from an environment variable (docs/oauth.md: "Servers behind OAuth").\n',
    );
  });

  it('login in CI, even on a terminal, refuses the default opener', async () => {
    const r = await runCli([...REMOTE, 'login', 'remote'], {
      stdinIsTTY: true,
      stderrIsTTY: true,
      env: { NO_COLOR: '1', HOME: home, CI: '1' },
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('will not open a browser in CI (CI is set)');
  });

  it('login and logout of an unknown server: exit 2 with the known names', async () => {
    for (const cmd of ['login', 'logout']) {
      const r = await runCli([...REMOTE, cmd, 'nope']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('mcp-smart: No server named "nope". Known servers: remote.\n');
    }
  });

  it('logout with nothing stored says so, as JSON too', async () => {
    const r = await runCli([...REMOTE, 'logout', 'remote', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ schemaVersion: 1, command: 'logout', server: 'remote', removed: 0 });
    expect(doc.store).toMatch(/oauth-tokens\.json$/);
  });
});

// adopt --apply on a client file it may not write, and --undo when the file's folder became read-only since.
// A config file in a read-only folder stopped --apply with exit 4 "Internal error: EACCES … mkdir config.toml.lock"
// after it had written mcp-smart.config.json and recorded the switch: the next adopt said "already runs mcp-smart
// instead" although the client's file was never switched. A read-only file was refused (exit 2) but only after
// mcp-smart.config.json was written. Now both are refused before anything is written (exit 2, the file named), and
// an --undo that cannot write is exit 2 naming the file, the switch still recorded so it can run again.
// Permissions bind only a user without root's override: as root the CLI runs under setpriv without it.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, fixture, requireBuild } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

requireBuild();
const isRoot = process.getuid?.() === 0;
const NO_OVERRIDE = ['setpriv', '--bounding-set=-dac_override,-dac_read_search'];
const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');

let home = '';
let project = '';
let codexDir = '';
let config = '';
const TOML = `# mine\n[mcp_servers.mem]\ncommand = "node"\nargs = [${JSON.stringify(SERVER)}, ${JSON.stringify(TINY)}]\n`;
beforeEach(() => {
  home = realpathSync(tempDir('mcp-smart-adopt-unwritable-'));
  project = join(home, 'proj');
  codexDir = join(home, '.codex');
  mkdirSync(project);
  mkdirSync(codexDir);
  config = join(codexDir, 'config.toml');
  writeFileSync(config, TOML);
});
afterEach(() => chmodSync(codexDir, 0o755));

/** The CLI as a user without root's override. */
function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const [cmd, ...rest] = isRoot ? [...NO_OVERRIDE, process.execPath, BIN, ...args] : [process.execPath, BIN, ...args];
  const r = spawnSync(cmd!, rest, {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, NO_COLOR: '1', HOME: home, MCP_SMART_CACHE_DIR: join(home, 'cache') },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/** Whether the CLI's user is held to a folder's mode here (setpriv present, no override as a capability). */
function folderModeBinds(): boolean {
  chmodSync(codexDir, 0o555);
  const r = isRoot
    ? spawnSync(NO_OVERRIDE[0]!, [...NO_OVERRIDE.slice(1), 'touch', join(codexDir, 'probe')])
    : spawnSync('touch', [join(codexDir, 'probe')]);
  chmodSync(codexDir, 0o755);
  return r.status !== 0;
}

const stateDir = (): string => join(home, '.local', 'share', 'mcp-smart', 'adopt');
const recorded = (): string[] => (existsSync(stateDir()) ? readdirSync(stateDir()) : []);
const errorOf = (stdout: string): { code: string; message: string } =>
  (JSON.parse(stdout) as { error: { code: string; message: string } }).error;

describe('adopt codex --apply / --undo where the client file may not be written', () => {
  it('config.toml in a read-only folder: exit 2 naming it, nothing written, no switch recorded', (ctx) => {
    if (!folderModeBinds()) ctx.skip();
    chmodSync(codexDir, 0o555);
    const r = cli('adopt', 'codex', '--apply', '--json');
    expect(r.status).toBe(2);
    expect(errorOf(r.stdout)).toMatchObject({ code: 'FILE_UNWRITABLE' });
    expect(errorOf(r.stdout).message).toContain(config);
    expect(readFileSync(config, 'utf8')).toBe(TOML);
    expect(existsSync(join(project, 'mcp-smart.config.json'))).toBe(false);
    expect(recorded()).toEqual([]);
    // Made writable, the same command switches.
    chmodSync(codexDir, 0o755);
    expect(cli('adopt', 'codex', '--apply', '--json').status).toBe(0);
    expect(readFileSync(config, 'utf8')).toContain('enabled = false');
  });

  it('a read-only config.toml: exit 2 naming it, mcp-smart.config.json not written either', () => {
    chmodSync(config, 0o444);
    const r = cli('adopt', 'codex', '--apply', '--json');
    chmodSync(config, 0o644);
    expect(r.status).toBe(2);
    expect(errorOf(r.stdout).message).toContain(config);
    expect(readFileSync(config, 'utf8')).toBe(TOML);
    expect(existsSync(join(project, 'mcp-smart.config.json'))).toBe(false);
    expect(recorded()).toEqual([]);
  });

  it('--undo after the folder became read-only: exit 2 naming the file, the switch kept; made writable, --undo restores', (ctx) => {
    if (!folderModeBinds()) ctx.skip();
    expect(cli('adopt', 'codex', '--apply', '--json').status).toBe(0);
    chmodSync(codexDir, 0o555);
    const started = Date.now();
    const r = cli('adopt', 'codex', '--undo', '--json');
    // Said at once: the lock's folder refusing is not a lock another process holds (that took 48 s of retries).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.status).toBe(2);
    expect(errorOf(r.stdout)).toMatchObject({ code: 'FILE_UNWRITABLE' });
    expect(errorOf(r.stdout).message).toContain(config);
    expect(recorded()).toHaveLength(1);
    chmodSync(codexDir, 0o755);
    expect(cli('adopt', 'codex', '--undo', '--json').status).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(TOML);
  });
});

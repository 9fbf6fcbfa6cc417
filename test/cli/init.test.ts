import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { argvServer } from '../helpers/argv-server.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const BASE = fixture('snapshots', 'check-base.json');
const GROWN = fixture('snapshots', 'check-grown.json');

let dir: string;
const cli = (argv: string[]) => runCli(argv, { cwd: dir, env: { NO_COLOR: '1', HOME: dir } });

beforeEach(async () => {
  dir = tempDir('mcp-smart-init-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('init --yes', () => {
  it('in an empty folder writes config, baseline and workflow that check then passes with', async () => {
    const r = await cli(['--snapshot', BASE, 'init', '--yes', '--github', '--max', '128000', '--max-growth', '3%']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Set up mcp-smart for 3 servers: files, notes, web');
    const config = JSON.parse(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toEqual({
      budget: { max: 128000, share: 0.1 },
      thresholds: { maxGrowth: '3%' },
      baseline: 'mcp-smart.lock.json',
    });
    const lock = JSON.parse(await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')) as {
      thresholds: unknown;
      servers: Record<string, { tokens: number }>;
    };
    expect(lock.thresholds).toEqual({ maxGrowth: '3%' });
    expect(Object.values(lock.servers).reduce((n, s) => n + s.tokens, 0)).toBe(807);
    const wf = await readFile(join(dir, '.github', 'workflows', 'mcp-smart.yml'), 'utf8');
    expect(wf).toContain('uses: actions/checkout@v4');
    expect(wf).toContain('node-version: 20');
    expect(wf).toContain('cache: npm');
    // No lockfile in this folder: the workflow pins the version that wrote it.
    expect(wf).toMatch(
      /run: npx --yes -- mcp-smart@\d+\.\d+\.\d+ --snapshot \S*check-base\.json check --format github/,
    );

    const check = await cli(['--snapshot', BASE, 'check']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('PASS');
    // The thresholds came from init: 3% of 807 allows 24 tokens, the grown fixture adds 69.
    const grown = await cli(['--snapshot', GROWN, 'check']);
    expect(grown.code).toBe(1);
    expect(grown.stdout).toContain('allowed growth 3%');
  });

  it('never overwrites an existing file without --force', async () => {
    await writeFile(join(dir, 'mcp-smart.config.json'), '{"budget": {"max": 1000}}\n');
    const r = await cli(['--snapshot', BASE, 'init', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('mcp-smart.config.json already exists. Pass --force to overwrite it.');
    expect(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')).toBe('{"budget": {"max": 1000}}\n');
    await expect(readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')).rejects.toThrow();
    const forced = await cli(['--snapshot', BASE, 'init', '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')).toContain('"budget"');
  });

  it('--force over an existing config keeps its servers, other keys and comments, and sets only its own keys', async () => {
    // It wrote a new file of init's keys alone: the servers were gone and the next check found none (exit 2).
    const tiny = [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')];
    const before = [
      '{ // my servers',
      `  "servers": {"tiny": {"command": ${JSON.stringify(process.execPath)}, "args": ${JSON.stringify(tiny)}}},`,
      '  "weights": {"fusion": {"bm25": 2}},',
      '  "budget": {"max": 1000, "limit": 50000},',
      '}',
      '',
    ].join('\n');
    await writeFile(join(dir, 'mcp-smart.config.json'), before);
    const env = { NO_COLOR: '1', HOME: dir, MCP_SMART_TRUST_PROJECT: '1' };
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env });
    const r = await run(['--no-cache', 'init', '--yes', '--force', '--max', '128000', '--max-growth', '3%']);
    expect(r.code, r.stderr).toBe(0);
    const after = await readFile(join(dir, 'mcp-smart.config.json'), 'utf8');
    expect(after).toContain('{ // my servers\n');
    expect(after).toContain(before.split('\n')[1]);
    expect(after).toContain('  "weights": {"fusion": {"bm25": 2}},\n');
    const doc = parseJsonc(after) as Record<string, unknown>;
    expect(doc.budget).toEqual({ max: 128000, limit: 50000, share: 0.1 });
    expect(doc.thresholds).toEqual({ maxGrowth: '3%' });
    expect(doc.baseline).toBe('mcp-smart.lock.json');
    const check = await run(['--no-cache', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toContain('PASS');
  });

  it('--force refuses a config it cannot read or that would not validate, and leaves it as it was', async () => {
    for (const text of ['{"servers": {', '[1, 2]\n', '{"budget": {"maxx": 5}}\n']) {
      await writeFile(join(dir, 'mcp-smart.config.json'), text);
      const r = await cli(['--json', '--snapshot', BASE, 'init', '--yes', '--force', '--github']);
      expect(r.code, text).toBe(2);
      const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(err.message, text).toContain('mcp-smart.config.json');
      expect(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')).toBe(text);
      expect((await readdir(dir)).filter((f) => f !== '.cache')).toEqual(['mcp-smart.config.json']);
    }
  });

  it('never writes through a symbolic link, even with --force, dangling or not: nothing is written', async () => {
    // A cloned repository could ship mcp-smart.lock.json as a link to another program's file.
    const victim = join(dir, 'outside', 'claude.json');
    await mkdir(join(dir, 'outside'));
    await writeFile(victim, '{"numStartups": 3}\n');
    await mkdir(join(dir, 'proj'));
    const proj = (argv: string[]) => runCli(argv, { cwd: join(dir, 'proj'), env: { NO_COLOR: '1', HOME: dir } });
    for (const target of [victim, join(dir, 'outside', 'not-yet.json')]) {
      await rm(join(dir, 'proj', 'mcp-smart.lock.json'), { force: true });
      await symlink(target, join(dir, 'proj', 'mcp-smart.lock.json'));
      const r = await proj(['--json', '--snapshot', BASE, 'init', '--yes', '--force', '--github']);
      expect(r.code, r.stderr).toBe(2);
      const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('FILE_LINK');
      expect(err.message).toContain('mcp-smart.lock.json');
      expect(await readFile(victim, 'utf8')).toBe('{"numStartups": 3}\n');
      expect((await readdir(join(dir, 'outside'))).sort()).toEqual(['claude.json']);
      expect(await readdir(join(dir, 'proj'))).toEqual(['mcp-smart.lock.json']);
    }
  });

  it('never writes through a linked .github or .github/workflows folder, nor into a file named so', async () => {
    // A cloned repository could ship .github as a link: the workflow landed in the folder it points at.
    const outside = join(dir, 'outside');
    await mkdir(outside);
    const proj = join(dir, 'proj');
    const run = (argv: string[]) => runCli(argv, { cwd: proj, env: { NO_COLOR: '1', HOME: dir } });
    const json = (stdout: string) => (JSON.parse(stdout) as { error: { code: string; message: string } }).error;
    for (const linked of ['.github', '.github/workflows']) {
      await rm(proj, { recursive: true, force: true });
      await mkdir(join(proj, '.github'), { recursive: true });
      if (linked === '.github') await rm(join(proj, '.github'), { recursive: true });
      await symlink(outside, join(proj, linked));
      const r = await run(['--json', '--snapshot', BASE, 'init', '--yes', '--force', '--github']);
      expect(r.code, r.stderr).toBe(2);
      expect(json(r.stdout).code).toBe('FILE_LINK');
      expect(json(r.stdout).message).toContain(`${linked} is a symbolic link`);
      expect(await readdir(outside)).toEqual([]);
      expect(await readdir(proj)).toEqual(['.github']);
    }
    await rm(proj, { recursive: true, force: true });
    await mkdir(proj);
    await writeFile(join(proj, '.github'), 'not a folder\n');
    const file = await run(['--json', '--snapshot', BASE, 'init', '--yes', '--github']);
    expect(file.code).toBe(2);
    expect(json(file.stdout).message).toContain('.github is not a folder');
    expect(await readdir(proj)).toEqual(['.github']);
    expect(await readFile(join(proj, '.github'), 'utf8')).toBe('not a folder\n');
  });

  it('--servers picks a subset; the baseline and the check command follow it', async () => {
    const r = await cli(['--snapshot', BASE, 'init', '--yes', '--servers', 'files,web', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      servers: string[];
      checkCommand: string;
      files: { path: string; written: boolean }[];
    };
    expect(doc.servers).toEqual(['files', 'web']);
    expect(doc.checkCommand).toMatch(/check-base\.json -s files -s web check$/);
    expect(doc.files.map((f) => [f.path, f.written])).toEqual([
      ['mcp-smart.config.json', true],
      ['mcp-smart.lock.json', true],
    ]);
    const lock = JSON.parse(await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')) as { servers: object };
    expect(Object.keys(lock.servers)).toEqual(['files', 'web']);
    expect((await cli(['--snapshot', BASE, '-s', 'files', '-s', 'web', 'check'])).code).toBe(0);
  });

  it('--no-baseline writes only the config; an unknown server is a usage error', async () => {
    expect((await cli(['--snapshot', BASE, 'init', '--yes', '--no-baseline'])).code).toBe(0);
    await expect(readFile(join(dir, 'mcp-smart.lock.json'), 'utf8')).rejects.toThrow();
    const bad = await cli(['--snapshot', BASE, 'init', '--yes', '--force', '--servers', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('No server named "nope"');
    // Only commas: it named no server, yet wrote a config of none over a baseline of all.
    const config = await readFile(join(dir, 'mcp-smart.config.json'), 'utf8');
    const none = await cli(['--snapshot', BASE, 'init', '--yes', '--force', '--servers', ' , ']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--servers');
    expect(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')).toBe(config);
  });

  it('--url with credentials writes a ${VAR} for the URL and names it; the values are never written or shown', async () => {
    // It wrote the URL redacted (redacted:redacted@…?api_key=redacted), which could never connect, and said nothing.
    const url = 'https://bob:hunter2@127.0.0.1:1/mcp?api_key=SECRETKEY123';
    const r = await cli(['--url', url, '--name', 'remote', 'init', '--yes', '--no-baseline']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('These values are secrets: mcp-smart.config.json refers to a variable instead');
    expect(r.stdout).toContain('  REMOTE_URL  (remote url)');
    const text = await readFile(join(dir, 'mcp-smart.config.json'), 'utf8');
    expect((JSON.parse(text) as { servers: unknown }).servers).toEqual({ remote: { url: '${REMOTE_URL}' } });
    const json = await cli(['--url', url, '--name', 'remote', '--json', 'init', '--yes', '--no-baseline', '--force']);
    expect((JSON.parse(json.stdout) as { variables: unknown }).variables).toEqual([
      { server: 'remote', key: 'url', variable: 'REMOTE_URL' },
    ]);
    for (const out of [r.stdout, r.stderr, json.stdout, json.stderr, text])
      for (const secret of ['hunter2', 'SECRETKEY123']) expect(out).not.toContain(secret);
    // Unset, mcp-smart names the variable; set as told, it gives the server its URL back.
    const servers = (env: Record<string, string>) =>
      runCli(['servers'], { cwd: dir, env: { NO_COLOR: '1', HOME: dir, MCP_SMART_TRUST_PROJECT: '1', ...env } });
    expect((await servers({})).stderr).toContain('${REMOTE_URL} is not set');
    const set = await servers({ REMOTE_URL: 'http://127.0.0.1:1/mcp' });
    expect(set.stderr).not.toContain('REMOTE_URL');
    expect(set.stdout).toContain('remote');
  });

  it('--stdio with a secret flag writes a ${VAR} in its args and names it; check with it set starts the server with the value', async () => {
    // The file write's redaction turned `--password hunter2` into `--password ***`: the server then got "***".
    const argvFile = join(dir, 'argv.json');
    const { line, args } = argvServer(argvFile, ['--password', 'hunter2', '--api-key=sk-live-0123456789abcdef']);
    const r = await cli(['--no-cache', '--stdio', line, '--name', 'echo', 'init', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    // The first baseline is measured from the server init started, which had the value.
    expect(JSON.parse(await readFile(argvFile, 'utf8'))).toContain('hunter2');
    const text = await readFile(join(dir, 'mcp-smart.config.json'), 'utf8');
    const entry = (JSON.parse(text) as { servers: { echo: { command: string; args: string[] } } }).servers.echo;
    expect(entry.command).toBe(process.execPath);
    expect(entry.args.slice(4)).toEqual(['--password', '${ECHO_PASSWORD}', '--api-key=${ECHO_API_KEY}']);
    expect(r.stdout).toContain('  ECHO_PASSWORD  (echo args[5])');
    expect(r.stdout).toContain('  ECHO_API_KEY  (echo args[6])');
    const json = await cli(['--no-cache', '--stdio', line, '--name', 'echo', '--json', 'init', '--yes', '--force']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { variables: unknown }).variables).toEqual([
      { server: 'echo', key: 'args[5]', variable: 'ECHO_PASSWORD' },
      { server: 'echo', key: 'args[6]', variable: 'ECHO_API_KEY' },
    ]);
    const lock = await readFile(join(dir, 'mcp-smart.lock.json'), 'utf8');
    for (const out of [r.stdout, r.stderr, json.stdout, json.stderr, text, lock])
      for (const secret of ['hunter2', 'sk-live-0123456789abcdef']) expect(out).not.toContain(secret);

    // Set as told, the config gives the server its values back and the check passes against init's baseline.
    await rm(argvFile);
    const check = await runCli(['--no-cache', 'check'], {
      cwd: dir,
      env: {
        NO_COLOR: '1',
        HOME: dir,
        MCP_SMART_TRUST_PROJECT: '1',
        ECHO_PASSWORD: 'hunter2',
        ECHO_API_KEY: 'sk-live-0123456789abcdef',
      },
    });
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(await readFile(argvFile, 'utf8'))).toEqual(args);
  });

  it('--ci-snapshot without --github is refused naming both flags, before anything is written', async () => {
    // It chooses what the workflow checks; without --github no workflow is written, and it was ignored without a word.
    const r = await cli(['--json', '--snapshot', BASE, 'init', '--yes', '--ci-snapshot']);
    expect(r.code).toBe(2);
    const err = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('BAD_FLAG');
    expect(err.message).toContain('--ci-snapshot');
    expect(err.message).toContain('Add --github');
    expect(await readdir(dir)).toEqual([]);
    expect((await cli(['--snapshot', BASE, 'init', '--yes', '--github', '--ci-snapshot'])).code).toBe(0);
  });

  it('refuses a first baseline without a server that failed, and a set-up where no server answered', async () => {
    const failed = fixture('snapshots', 'check-unreachable.json');
    const r = await cli(['--snapshot', failed, 'init', '--yes']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('warning: server web could not be reached; it is not in the baseline');
    expect(JSON.parse((await cli(['--snapshot', failed, 'init', '--yes', '--json'])).stdout)).toMatchObject({
      error: { code: 'BASELINE_FROM_FAILED' },
    });
    await expect(readFile(join(dir, 'mcp-smart.config.json'), 'utf8')).rejects.toThrow();
    const none = await cli(['--snapshot', failed, 'init', '--yes', '-s', 'web', '--json']);
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout)).toMatchObject({ error: { code: 'INIT_NOTHING_REACHED' } });
  });
});

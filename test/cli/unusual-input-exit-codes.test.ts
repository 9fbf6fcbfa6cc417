// weird inputs a user can type must give exit 0/1/2/3 with a clear message, never 4.
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { questionsOf } from '../../src/commands/init.js';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'audit-findings.json');
const CHECK_BASE = fixture('snapshots', 'check-base.json');
const INTENTS = fixture('snapshots', 'check-intents.jsonl');
const BOM = '\uFEFF';
const TINY = {
  command: process.execPath,
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};

let dir: string;
let home: string;
const cli = (argv: string[], extraEnv: Record<string, string> = {}) =>
  runCli(argv, {
    cwd: dir,
    env: {
      NO_COLOR: '1',
      HOME: home,
      MCP_SMART_CACHE_DIR: join(home, 'cache'),
      MCP_SMART_DATA_DIR: join(home, 'data'),
      ...extraEnv,
    },
  });
const jsonError = (stdout: string): { code: string; message: string } =>
  (JSON.parse(stdout) as { error: { code: string; message: string } }).error;

beforeEach(async () => {
  dir = tempDir('mcp-smart-qa-');
  home = tempDir('mcp-smart-qa-home-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('files saved with a UTF-8 byte-order mark (Windows editors) are read', () => {
  it('a client config with a BOM', async () => {
    const file = join(dir, 'mcp.json');
    await writeFile(file, BOM + JSON.stringify({ mcpServers: { alpha: { command: 'node', args: ['server.js'] } } }));
    const r = await cli(['--json', '-c', file, 'servers']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(['alpha']);
  });

  it('our own mcp-smart.config.json with a BOM', async () => {
    await writeFile(join(dir, 'mcp-smart.config.json'), BOM + JSON.stringify({ budget: { max: 50000 } }));
    const r = await cli(['--json', '--snapshot', SNAP, 'budget']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ max: 50000, limit: 5000, fits: true });
  });

  it('a baseline and labelled intents with a BOM', async () => {
    expect((await cli(['--snapshot', CHECK_BASE, 'check', '--update'])).code).toBe(0);
    const lock = join(dir, 'mcp-smart.lock.json');
    await writeFile(lock, BOM + (await readFile(lock, 'utf8')));
    await writeFile(join(dir, 'intents.jsonl'), BOM + (await readFile(INTENTS, 'utf8')));
    const r = await cli([
      '--json',
      '--snapshot',
      CHECK_BASE,
      'check',
      '--queries',
      'intents.jsonl',
      '--min-recall',
      '0',
    ]);
    expect(r.stdout).not.toContain('"error"');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      command: 'check',
      passed: true,
      totals: { before: 807, after: 807, delta: 0 },
    });
  });

  it('a snapshot with a BOM', async () => {
    await writeFile(join(dir, 'snap.json'), BOM + (await readFile(SNAP, 'utf8')));
    const r = await cli(['--json', '--snapshot', 'snap.json', 'audit']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ command: 'audit', totals: { toolCount: 9 } });
  });
});

describe('-o that cannot be written is a usage error naming the file', () => {
  it('-o pointing at a folder: exit 2, FILE_UNWRITABLE, no temp file left behind', async () => {
    await mkdir(join(dir, 'out'));
    const r = await cli(['--json', '--snapshot', SNAP, 'condense', '-o', 'out']);
    expect(r.code).toBe(2);
    const err = jsonError(r.stdout);
    expect(err.code).toBe('FILE_UNWRITABLE');
    expect(err.message).toContain(join(dir, 'out'));
    expect(await readdir(dir)).toEqual(['out']);
  });

  it('-o below a regular file (not a folder): exit 2 for budget --apply', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    const r = await cli(['--snapshot', SNAP, 'budget', '--max', '1000', '--apply', '-o', 'plain/tools.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Cannot write');
    expect(r.stderr).toContain(join(dir, 'plain', 'tools.json'));
    expect(r.stderr).not.toContain('Internal error');
  });

  it('check --update into a baseline path that is a folder: exit 2', async () => {
    await mkdir(join(dir, 'lock'));
    const r = await cli(['--snapshot', CHECK_BASE, 'check', '--update', '--baseline', 'lock']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lock');
    expect(r.stderr).not.toContain('Internal error');
  });
});

describe('a folder given where a file is read is a usage error that says so', () => {
  it('--config and check --baseline naming a folder: exit 2, FILE_UNREADABLE, "it is a folder"', async () => {
    await mkdir(join(dir, 'cfg'));
    for (const argv of [
      ['--json', '--config', 'cfg', 'audit'],
      ['--json', '--snapshot', CHECK_BASE, 'check', '--baseline', 'cfg'],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const err = jsonError(r.stdout);
      expect(err.code).toBe('FILE_UNREADABLE');
      expect(err.message).toContain('cfg');
      expect(err.message).toContain('it is a folder');
      expect(err.message).not.toContain('EISDIR');
    }
  });
});

describe('an unusable cache folder never fails a run (it is only a cache)', () => {
  it('MCP_SMART_CACHE_DIR below a regular file: audit and condense still answer', async () => {
    await writeFile(join(home, 'afile'), 'x');
    const env = { MCP_SMART_CACHE_DIR: join(home, 'afile', 'cache') };
    const audit = await cli(['--json', '--snapshot', SNAP, 'audit'], env);
    expect(audit.code).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject({ command: 'audit', totals: { toolCount: 9 } });
    const condense = await cli(['--json', '--snapshot', SNAP, 'condense'], env);
    expect(condense.code).toBe(0);
  });
});

describe('numbers a user can type', () => {
  it('--max beyond what can be counted exactly is rejected naming the flag', async () => {
    const r = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '999999999999999999999999']);
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout)).toMatchObject({ code: 'BAD_FLAG' });
    expect(jsonError(r.stdout).message).toContain('--max');
  });

  it('a limit above the window is rejected, from --limit or from budget.limit; at the window it is allowed', async () => {
    const over = await cli(['--snapshot', SNAP, 'budget', '--max', '1000', '--limit', '1001']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('--limit');
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ budget: { limit: 5000 } }));
    const fromConfig = await cli(['--snapshot', SNAP, 'budget', '--max', '1000']);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('budget.limit');
    const at = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '1000', '--limit', '1000']);
    expect(at.code).not.toBe(2);
    expect(JSON.parse(at.stdout)).toMatchObject({ max: 1000, limit: 1000 });
  });

  it('--share 0 is rejected like budget.share 0 in the config', async () => {
    const r = await cli(['--snapshot', SNAP, 'budget', '--max', '1000', '--share', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--share');
  });

  it('--share out of range says the one range it takes, whichever side it is off (it said "from 0 to 1" above 1)', async () => {
    for (const argv of [
      ['budget', '--max', '1000', '--share'],
      ['serve', '--share'],
      ['init', '--yes', '--no-baseline', '--share'],
    ])
      for (const v of ['0', '2', '-0.5']) {
        const r = await cli(['--snapshot', SNAP, ...argv, v]);
        expect(r.code, `${argv.join(' ')} ${v}`).toBe(2);
        expect(r.stderr).toContain(`Invalid value for --share: ${v}. Expected a fraction above 0 and at most 1`);
      }
    expect(await readdir(dir)).toEqual([]);
  });

  it('serve --share 0 is rejected as budget rejects it (serve sends the plan budget prints)', async () => {
    const r = await cli(['--snapshot', SNAP, 'serve', '--share', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--share');
  });

  it('init --share 0 is rejected instead of writing a config every later run refuses', async () => {
    const r = await cli(['--snapshot', SNAP, 'init', '--yes', '--share', '0', '--no-baseline']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--share');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a flag only one mode reads, given without it, is refused instead of ignored', async () => {
    // serve over stdio ignored --port, --token-env and --issuer (a protection that was never there); replay --user
    // without --learn named nobody.
    for (const [flag, argv] of [
      ['--port', ['serve', '--port', '8080']],
      ['--host', ['serve', '--host', '0.0.0.0']],
      ['--token-env', ['serve', '--token-env', 'HOME']],
      ['--issuer', ['serve', '--issuer', 'https://issuer.example']],
      ['--session-idle', ['serve', '--transport', 'stdio', '--session-idle', '5']],
      ['--user', ['replay', fixture('sessions', 'intents'), '--user', 'bob']],
      // check -k / --store without --queries, replay --folds / --seed without --tune: the gate or the search they
      // set never ran, and the exit said nothing of it.
      ['-k', ['check', '-k', '3']],
      ['--store', ['check', '--store', 'usage.json']],
      ['--min-recall', ['check', '--min-recall', '0.5']],
      ['--folds', ['replay', fixture('sessions', 'intents'), '--no-store', '--folds', '3']],
      ['--seed', ['replay', fixture('sessions', 'intents'), '--no-store', '--seed', '7']],
    ] as const) {
      const r = await cli(['--json', '--snapshot', SNAP, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'BAD_FLAG' });
      expect(jsonError(r.stdout).message).toContain(`Invalid value for ${flag}:`);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('the same flags with the one they count with still run', async () => {
    await writeFile(join(dir, 'intents.jsonl'), await readFile(INTENTS, 'utf8'));
    expect((await cli(['--snapshot', CHECK_BASE, 'check', '--update'])).code).toBe(0);
    const gate = await cli(['--json', '--snapshot', CHECK_BASE, 'check', '--queries', 'intents.jsonl', '-k', '3']);
    expect(gate.code).toBe(0);
    expect(JSON.parse(gate.stdout)).toMatchObject({ passed: true, retrieval: { k: 3 } });
    const tune = await cli([
      '--json',
      '--snapshot',
      CHECK_BASE,
      'replay',
      INTENTS,
      '--no-store',
      '--tune',
      '--folds',
      '2',
    ]);
    expect(tune.code).toBe(0);
    expect(JSON.parse(tune.stdout)).toMatchObject({ command: 'replay', cases: 9 });
  });

  it('a store flag or file that only another action reads is refused, and no store is created', async () => {
    // `store init team.json` set up the default store and said nothing of team.json; `--tool` on init, `--force`
    // on scope and `--tool` with `--user` on forget were ignored the same way.
    for (const [flag, argv] of [
      ['<file>', ['store', 'init', 'team.json']],
      ['<file>', ['store', 'forget', 'usage.json', '--tool', 'a.b']],
      ['--tool', ['store', 'init', '--tool', 'a.b']],
      ['--user', ['store', 'export', 'out.json', '--user', 'bob']],
      ['--force', ['store', 'scope', '--force']],
      ['--project', ['store', 'init', '--project', '.']],
      ['--user', ['store', 'forget', '--tool', 'a.b', '--user', 'bob']],
    ] as const) {
      const r = await cli(['--json', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'BAD_FLAG' });
      expect(jsonError(r.stdout).message).toContain(`Invalid value for ${flag}:`);
    }
    expect(await readdir(dir)).toEqual([]);
    expect(existsSync(join(home, 'data'))).toBe(false);
    const ok = await cli(['--json', 'store', 'export', 'out.json']);
    expect(ok.code).toBe(0);
    expect(existsSync(join(dir, 'out.json'))).toBe(true);
  });

  it('adopt --undo with a flag it takes no names that flag, not an empty value', async () => {
    for (const flag of ['--apply', '--dry-run', '--scope-from-use']) {
      const r = await cli(['--json', 'adopt', 'claude-code', '--undo', flag]);
      expect(r.code, flag).toBe(2);
      expect(jsonError(r.stdout).message).toContain(`Invalid value for --undo: with ${flag}.`);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('--json with another --format is refused, as JSON, not answered in one of the two', async () => {
    for (const format of ['table', 'markdown', 'github']) {
      const r = await cli(['--json', '--format', format, '--snapshot', SNAP, 'servers']);
      expect(r.code, format).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'BAD_FLAG' });
      expect(jsonError(r.stdout).message).toContain(`Invalid value for --format: ${format}.`);
    }
    const same = await cli(['--json', '--format', 'json', '--snapshot', SNAP, 'servers']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ command: 'servers' });
  });

  it('--snapshot of a file that is no snapshot advises a new file for dump -o, not writing over that one', async () => {
    expect((await cli(['--snapshot', CHECK_BASE, 'check', '--update'])).code).toBe(0);
    const other = await cli(['--json', '--snapshot', 'mcp-smart.lock.json', 'audit']);
    expect(other.code).toBe(2);
    expect(jsonError(other.stdout)).toMatchObject({ code: 'SNAPSHOT_INVALID' });
    expect(jsonError(other.stdout).message).toContain('Create one with: mcp-smart dump -o mcp-snapshot.json');
    // A snapshot of ours that is broken is written anew where it is.
    await writeFile(join(dir, 'broken.json'), '{"format": "mcp-smart/snapshot@1", "servers": {}}');
    const broken = await cli(['--json', '--snapshot', 'broken.json', 'audit']);
    expect(broken.code).toBe(2);
    expect(jsonError(broken.stdout).message).toContain('Create one with: mcp-smart dump -o broken.json');
  });

  it('--config given a snapshot or a baseline names the flag that reads it', async () => {
    expect((await cli(['--snapshot', CHECK_BASE, 'check', '--update'])).code).toBe(0);
    for (const [file, flag] of [
      [CHECK_BASE, '--snapshot <file>'],
      ['mcp-smart.lock.json', '--baseline <file>'],
    ] as const) {
      const r = await cli(['--json', '--config', file, 'servers']);
      expect(r.code, file).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'CONFIG_INVALID' });
      expect(jsonError(r.stdout).message).toContain(flag);
    }
  });

  it('a labelled intent with nothing expected is refused by discover and check --queries, naming the line', async () => {
    // It was left out of the case count without a word, so the recall the gate read came from fewer intents.
    await writeFile(
      join(dir, 'intents.jsonl'),
      (await readFile(INTENTS, 'utf8')).trimEnd() + '\n{"intent": "say hello", "expected": []}\n',
    );
    const lines = (await readFile(join(dir, 'intents.jsonl'), 'utf8')).trimEnd().split('\n').length;
    expect((await cli(['--snapshot', CHECK_BASE, 'check', '--update'])).code).toBe(0);
    for (const argv of [
      ['discover', '--queries', 'intents.jsonl'],
      ['check', '--queries', 'intents.jsonl'],
    ]) {
      const r = await cli(['--json', '--snapshot', CHECK_BASE, ...argv]);
      expect(r.code, argv[0]).toBe(2);
      expect(jsonError(r.stdout).message).toContain(`line ${lines}: "expected" is empty`);
    }
  });

  it('an environment switch takes true as 1, and a value it does not take is refused naming the variable', async () => {
    // MCP_SMART_TRUST_PROJECT=true started nothing, and the note then asked for the =1 the user thought was set;
    // MCP_SMART_MAX_MESSAGE_MB=512MB kept the 256 MB limit without a word.
    const mark = join(home, 'server-started');
    const server = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(mark)}, '')`],
    };
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ servers: { marker: server } }));
    for (const [name, value] of [
      ['MCP_SMART_TRUST_PROJECT', 'banana'],
      ['MCP_SMART_PROGRESS', 'always'],
      ['MCP_SMART_MAX_MESSAGE_MB', '512MB'],
    ] as const) {
      const r = await cli(['--json', '--timeout', '5000', 'audit'], { MCP_SMART_TRUST_PROJECT: '1', [name]: value });
      expect(r.code, name).toBe(2);
      expect(jsonError(r.stdout).message).toContain(`Invalid value for ${name}: ${value}.`);
    }
    expect(existsSync(mark)).toBe(false);
    const trusted = await cli(['--json', '--timeout', '5000', 'audit'], { MCP_SMART_TRUST_PROJECT: 'true' });
    expect(trusted.stdout).not.toContain('"error": {');
    expect(existsSync(mark)).toBe(true);
  });

  it('-s names a server waiting for approval or switched off as such, not as a server that does not exist', async () => {
    // "No server named "on". Known servers: (none)" for a server the config lists, only not approved or disabled.
    const server = {
      command: process.execPath,
      args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
    };
    const config = { servers: { on: server, off: { ...server, disabled: true } } };
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify(config));
    const untrusted = await cli(['--json', '-s', 'on', 'audit'], { MCP_SMART_TRUST_PROJECT: '' });
    expect(untrusted.code).toBe(2);
    expect(jsonError(untrusted.stdout)).toMatchObject({ code: 'PROJECT_NOT_TRUSTED' });
    const off = await cli(['--json', '--trust-project', '-s', 'off', 'audit']);
    expect(off.code).toBe(2);
    expect(jsonError(off.stdout)).toMatchObject({ code: 'NO_SERVERS_ENABLED' });
    const both = await cli(['--json', '--trust-project', '-s', 'off', '-s', 'on', 'audit']);
    expect(both.code).toBe(0);
    expect(both.stderr).toContain('warning: server "off" was not started');
    expect((JSON.parse(both.stdout) as { servers: { name: string }[] }).servers.map((x) => x.name)).toEqual(['on']);
  });

  it('a --config file with no server, or with every server switched off, is named as such', async () => {
    // Both said "No MCP servers found. Searched the project and user config locations … Pass --config <file>",
    // though the file had been passed and read.
    await writeFile(join(dir, 'empty.json'), JSON.stringify({ mcpServers: {} }));
    const server = { command: process.execPath, args: [fixture('servers', 'catalog-server.mjs')], disabled: true };
    await writeFile(join(dir, 'off.json'), JSON.stringify({ mcpServers: { quiet: server } }));
    for (const command of [['dump'], ['budget', '--max', '1000'], ['init', '-y'], ['serve']]) {
      const empty = await cli(['--json', '-c', 'empty.json', ...command]);
      expect(empty.code, command[0]).toBe(2);
      const none = jsonError(empty.stdout);
      expect(none.code, command[0]).toBe('NO_SERVERS');
      expect(none.message).toContain('empty.json');
      expect(none.message).not.toContain('Searched');
      const off = await cli(['--json', '-c', 'off.json', ...command]);
      expect(off.code, command[0]).toBe(2);
      expect(jsonError(off.stdout), command[0]).toMatchObject({ code: 'NO_SERVERS_ENABLED' });
      expect(jsonError(off.stdout).message).toContain('quiet');
    }
    expect(existsSync(join(dir, 'mcp-smart.config.json'))).toBe(false);
  });

  it('serve --scope of separators only is refused, not read as no scope to check', async () => {
    const r = await cli([
      '--snapshot',
      SNAP,
      'serve',
      '--transport',
      'http',
      '--issuer',
      'https://issuer.example',
      '--scope',
      ' , ',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Invalid value for --scope: " , ".');
  });

  it('an empty flag value is shown as "" in the message', async () => {
    const r = await cli(['--json', '--url', '', 'audit']);
    expect(r.code).toBe(2);
    expect(jsonError(r.stdout).message).toContain('Invalid value for --url: "".');
  });

  it('a flag given an empty value (an unset $VAR) is refused before any server starts, not read as left out', async () => {
    // `dump -o "$OUT"` with OUT unset printed the snapshot on stdout and exited 0; `check --baseline ""` gated on
    // the default file; `init --servers ""` took every server.
    const mark = join(dir, 'server-started');
    const server = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(mark)}, '')`)}`;
    for (const [flag, argv] of [
      ['--output', ['dump', '-o', '']],
      ['--output', ['condense', '--output=']],
      ['--baseline', ['check', '--baseline', '']],
      ['--store', ['discover', 'read a file', '--store', '']],
      ['--servers', ['init', '--yes', '--servers', '']],
      ['--server', ['-s', '', 'audit']],
      ['--config', ['--config', '', 'audit']],
      ['-k', ['discover', 'x', '-k', '']],
    ] as const) {
      const r = await cli(['--json', '--stdio', server, ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(jsonError(r.stdout)).toMatchObject({ code: 'BAD_FLAG' });
      expect(jsonError(r.stdout).message).toContain(`Invalid value for ${flag}: "".`);
    }
    expect(existsSync(mark)).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});

// Numbers in flags, variables and init's prompts are plain decimal: Number() read `--max 0x100` as a window of 256,
// `-k 0b11` as 3, `--max 1e3` as 1000, `--max " 12 "` as 12 and MCP_SMART_MAX_MESSAGE_MB=0x10 as 16 MB.
/** What Number() reads as a number and a user did not write as one. */
const NOT_PLAIN = ['0x100', '1e3', ' 12 ', '1_000', '0b11', '0o17', '+5', 'Infinity'];

describe('numeric flags take plain decimal only', () => {
  it('every numeric flag refuses 0x…, 1e…, padded, underscored and signed spellings: exit 2 naming flag and value', async () => {
    const cases: [flag: string, argv: (v: string) => string[]][] = [
      ['--max', (v) => ['--snapshot', SNAP, 'budget', '--max', v]],
      ['--limit', (v) => ['--snapshot', SNAP, 'budget', '--max', '100000', '--limit', v]],
      ['--share', (v) => ['--snapshot', SNAP, 'budget', '--max', '100000', '--share', v]],
      ['-k', (v) => ['--snapshot', SNAP, 'discover', 'time', '-k', v]],
      ['--top', (v) => ['--snapshot', SNAP, 'audit', '--top', v]],
      ['--window', (v) => ['--snapshot', SNAP, 'audit', '--window', v]],
      ['--timeout', (v) => ['--snapshot', SNAP, '--timeout', v, 'servers']],
      ['--max', (v) => ['--snapshot', CHECK_BASE, 'check', '--update', '--max', v]],
      ['--max-growth', (v) => ['--snapshot', CHECK_BASE, 'check', '--update', '--max-growth', v]],
      ['--min-recall', (v) => ['--snapshot', CHECK_BASE, 'check', '--update', '--queries', INTENTS, '--min-recall', v]],
      ['-k', (v) => ['--snapshot', CHECK_BASE, 'check', '--update', '--queries', INTENTS, '-k', v]],
      ['-k', (v) => ['--snapshot', SNAP, 'replay', INTENTS, '--no-store', '-k', v]],
      ['--ttl-days', (v) => ['--snapshot', SNAP, 'replay', INTENTS, '--ttl-days', v]],
      ['--folds', (v) => ['--snapshot', SNAP, 'replay', INTENTS, '--no-store', '--tune', '--folds', v]],
      ['--seed', (v) => ['--snapshot', SNAP, 'replay', INTENTS, '--no-store', '--tune', '--seed', v]],
      ['--max', (v) => ['--snapshot', SNAP, 'init', '--yes', '--no-baseline', '--max', v]],
      ['--share', (v) => ['--snapshot', SNAP, 'init', '--yes', '--no-baseline', '--share', v]],
      ['--port', (v) => ['--snapshot', SNAP, 'serve', '--transport', 'http', '--port', v]],
      ['--session-idle', (v) => ['--snapshot', SNAP, 'serve', '--transport', 'http', '--session-idle', v]],
      ['--max-sessions', (v) => ['--snapshot', SNAP, 'serve', '--transport', 'http', '--max-sessions', v]],
      ['--spawn-timeout', (v) => ['--snapshot', SNAP, 'serve', '--spawn-timeout', v]],
      ['--call-timeout', (v) => ['--snapshot', SNAP, 'serve', '--call-timeout', v]],
      ['--first-list-wait', (v) => ['--snapshot', SNAP, 'serve', '--first-list-wait', v]],
    ];
    for (const [flag, argv] of cases)
      for (const value of NOT_PLAIN) {
        const r = await cli(['--json', ...argv(value)]);
        const what = `${argv(value).join(' ')}`;
        expect(r.code, what).toBe(2);
        expect(jsonError(r.stdout).code, what).toBe('BAD_FLAG');
        const shown = /^\s|\s$/.test(value) ? JSON.stringify(value) : value;
        expect(jsonError(r.stdout).message, what).toContain(`Invalid value for ${flag}: ${shown}.`);
      }
    // Nothing was written: no config, no baseline, no store.
    expect(await readdir(dir)).toEqual([]);
    expect(existsSync(join(home, 'data'))).toBe(false);
  });

  it('the spelling refusal gives an example of the flag with a value it takes', async () => {
    const r = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '0x100']);
    expect(jsonError(r.stdout).message).toContain('e.g. --max 128000');
    const share = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '1000', '--share', '1e-1']);
    expect(jsonError(share.stdout).message).toContain('e.g. --share 0.1');
  });

  it('the numbers the docs show still work, and mean what they say', async () => {
    const budget = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '128000', '--share', '0.1']);
    expect(JSON.parse(budget.stdout)).toMatchObject({ max: 128000, limit: 12800 });
    const limit = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '20000', '--limit', '8000']);
    expect(JSON.parse(limit.stdout)).toMatchObject({ max: 20000, limit: 8000 });
    const fraction = await cli(['--json', '--snapshot', SNAP, 'budget', '--max', '1000', '--share', '.5']);
    expect(JSON.parse(fraction.stdout)).toMatchObject({ max: 1000, limit: 500 });
    const k = await cli(['--json', '--snapshot', SNAP, 'discover', 'time', '-k', '3']);
    expect(JSON.parse(k.stdout)).toMatchObject({ k: 3 });
    const update = await cli(['--json', '--snapshot', CHECK_BASE, 'check', '--update', '--max-growth', '2.5 %']);
    expect(update.code).toBe(0);
    const gate = await cli(['--json', '--snapshot', CHECK_BASE, 'check', '--max-growth', '500', '--max', '200000']);
    expect(JSON.parse(gate.stdout)).toMatchObject({ passed: true, thresholds: { maxGrowth: '500', max: 200000 } });
  });
});

describe('numeric variables take plain decimal only', () => {
  it('MCP_SMART_MAX_MESSAGE_MB=0x10 (and 1e3, " 12 ") is refused before any server starts; 0.5 and 512 work', async () => {
    const mark = join(home, 'server-started');
    const marker = {
      command: process.execPath,
      args: ['-e', `require('fs').writeFileSync(${JSON.stringify(mark)}, '')`],
    };
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ servers: { marker } }));
    for (const value of ['0x10', '1e3', ' 12 ', '1_000', 'Infinity']) {
      const r = await cli(['--json', '--timeout', '5000', 'audit'], { MCP_SMART_MAX_MESSAGE_MB: value });
      expect(r.code, value).toBe(2);
      expect(jsonError(r.stdout).code).toBe('BAD_FLAG');
      expect(jsonError(r.stdout).message).toContain('Invalid value for MCP_SMART_MAX_MESSAGE_MB:');
    }
    expect(existsSync(mark)).toBe(false);
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify({ servers: { tiny: TINY } }));
    for (const value of ['0.5', '512']) {
      const r = await cli(['--json', '--no-cache', 'audit'], { MCP_SMART_MAX_MESSAGE_MB: value });
      expect(r.code, value).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ servers: [{ name: 'tiny', status: 'ok' }] });
    }
  });
});

describe("init's prompts read answers by the flags' rules", () => {
  it('the window and share prompts refuse 0x100, 1e3 and " 12 ", and take 128000 and 0.25', async () => {
    const checks = new Map<string, (v: string) => true | string>();
    const answers: Record<string, string> = {
      'Context window (tokens)': '128000',
      'Share of the window the tool context may use': '0.25',
    };
    const prompts = {
      input: ({
        message,
        validate,
        default: d,
      }: {
        message: string;
        validate: (v: string) => true | string;
        default: string;
      }) => {
        checks.set(message, validate);
        return Promise.resolve(answers[message] ?? d);
      },
      confirm: () => Promise.resolve(false),
      checkbox: () => Promise.resolve([]),
    };
    const questions = questionsOf(prompts as unknown as Parameters<typeof questionsOf>[0]);
    const got = await questions.settings(['a'], {
      servers: ['a'],
      max: 200000,
      share: 0.1,
      maxGrowth: '5%',
      github: false,
    });
    expect(got).toMatchObject({ max: 128000, share: 0.25 });
    const window = checks.get('Context window (tokens)')!;
    const share = checks.get('Share of the window the tool context may use')!;
    for (const v of ['0x100', '1e3', ' 12 ', '1_000', '0']) expect(window(v), v).not.toBe(true);
    for (const v of ['0x1', '1e-1', ' 0.5', '0', '2']) expect(share(v), v).not.toBe(true);
    expect([window('128000'), share('0.25'), share('1')]).toEqual([true, true, true]);
    const growth = checks.get('Allowed growth before check fails ("5%" or tokens)')!;
    for (const v of ['0x10', '1e3', '1_000', '5e1%']) expect(growth(v), v).not.toBe(true);
    expect([growth('5%'), growth('2.5 %'), growth('500')]).toEqual([true, true, true]);
  });
});

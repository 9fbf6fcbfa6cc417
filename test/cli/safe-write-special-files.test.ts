// Every file we write goes through writeFileSafe: a symlink is followed to its target, a FIFO or a device
// is written in place (never replaced), anything else is refused. Stand-ins live in a temp folder of our own.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSafe } from '../../src/process/safe-write.js';
import { runCli } from '../helpers/fake-io.js';
import { BIN, fixture } from '../helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-safe-write-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SNAP = fixture('snapshots', 'check-base.json');

/** A character device stand-in made by the test (root only, as CI often is): same major/minor as /dev/null. */
function charDeviceStandIn(name: string): string {
  const path = join(dir, name);
  execFileSync('mknod', [path, 'c', '1', '3']);
  return path;
}

describe('safe-write on special files', () => {
  it('dump -o onto a symlink writes its target and leaves the link a link', async () => {
    const target = join(dir, 'real-snapshot.json');
    writeFileSync(target, '{"format": "mcp-smart/snapshot@1", "servers": []}\n');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    const r = await runCli(['--snapshot', SNAP, 'dump', '-o', link]);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(JSON.parse(readFileSync(target, 'utf8')).format).toBe('mcp-smart/snapshot@1');
  });

  it('an output file that holds something else is left as it is; an empty one or an earlier output is replaced', async () => {
    // `dump -o package.json` typed by mistake replaced package.json with a snapshot (so did condense -o, budget
    // --apply -o and audit --html, also through a link to the file).
    const outputs: [string, string[], (text: string) => boolean][] = [
      ['dump', ['dump', '-o'], (t) => JSON.parse(t).format === 'mcp-smart/snapshot@1'],
      ['condense', ['condense', '-o'], (t) => JSON.parse(t).command === 'condense'],
      ['budget', ['budget', '--max', '200000', '--apply', '-o'], (t) => JSON.parse(t).command === 'budget'],
      ['audit', ['audit', '--html'], (t) => t.includes('<title>mcp-smart audit')],
    ];
    const theirs = '{\n  "name": "my-app",\n  "version": "1.0.0"\n}\n';
    for (const [name, argv, written] of outputs) {
      const file = join(dir, `${name}-theirs.json`);
      writeFileSync(file, theirs);
      const link = join(dir, `${name}-link.json`);
      symlinkSync(file, link);
      for (const path of [file, link]) {
        const r = await runCli(['--snapshot', SNAP, ...argv, path]);
        expect(r.code, `${name} ${path}`).toBe(2);
        expect(r.stderr).toContain('it holds something other than an mcp-smart');
        expect(readFileSync(file, 'utf8')).toBe(theirs);
      }
      const empty = join(dir, `${name}-empty.json`);
      writeFileSync(empty, '');
      expect((await runCli(['--snapshot', SNAP, ...argv, empty])).code, name).toBe(0);
      expect(written(readFileSync(empty, 'utf8'))).toBe(true);
      // A second run replaces the first one's output.
      expect((await runCli(['--snapshot', SNAP, ...argv, empty])).code, name).toBe(0);
      expect(written(readFileSync(empty, 'utf8'))).toBe(true);
    }
  });

  it('a dangling symlink is followed: the target is created, the link kept', async () => {
    const sub = join(dir, 'dangling');
    mkdirSync(sub);
    symlinkSync(join(sub, 'later.json'), join(sub, 'link.json'));
    await writeFileSafe(join(sub, 'link.json'), '{"ok":1}\n');
    expect(lstatSync(join(sub, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(sub, 'later.json'), 'utf8')).toBe('{"ok":1}\n');
  });

  it('a FIFO with a reader is written directly and stays a FIFO', async () => {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (d: Buffer) => (got += d.toString()));
    const closed = new Promise((r) => reader.on('close', r));
    await new Promise((r) => setTimeout(r, 100));
    const r = await runCli(['--snapshot', SNAP, 'dump', '-o', fifo]);
    await closed;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(got).format).toBe('mcp-smart/snapshot@1');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('-o /dev/stdout and /dev/fd/1 onto a pipe write to the pipe (the link ends in "pipe:[…]", no path)', () => {
    // Resolved hop by hop to /proc/self/fd/pipe:[…], the write tried to make a temporary file in /proc/self/fd:
    // "Cannot write /dev/stdout: the folder cannot be created there", exit 2, nothing written.
    for (const out of ['/dev/stdout', '/dev/fd/1']) {
      // Through a shell's pipe (node's own child stdio is a socket, which a path cannot open).
      const got = execFileSync(
        'sh',
        ['-c', '"$0" "$@" | cat', process.execPath, BIN, '--snapshot', SNAP, 'dump', '-o', out],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          env: { ...process.env, HOME: dir, NO_COLOR: '1' },
        },
      );
      expect(JSON.parse(got).format, out).toBe('mcp-smart/snapshot@1');
    }
  });

  it('a FIFO nobody reads is refused (exit 2 naming it), not waited on and not replaced', async () => {
    const fifo = join(dir, 'lonely.json');
    execFileSync('mkfifo', [fifo]);
    const r = await runCli(['--snapshot', SNAP, 'dump', '-o', fifo]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot write ${fifo}: it is a pipe (FIFO) that nothing is reading`);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a character device stand-in is written in place and stays a device (dump, condense)', async () => {
    const dev = charDeviceStandIn('null');
    for (const argv of [
      ['--snapshot', SNAP, 'dump', '-o', dev],
      ['--snapshot', SNAP, 'condense', '-o', dev],
    ]) {
      const r = await runCli(argv, { cwd: dir });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      expect(statSync(dev).isCharacterDevice()).toBe(true);
    }
    // A baseline is read before it is written: a device is not one (exit 2 naming it), and stays a device.
    const r = await runCli(['--snapshot', SNAP, 'check', '--update', '--baseline', dev], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(dev);
    expect(statSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a full-disk device stand-in (like /dev/full) is a clear exit-2 error, and the device is left as it was', async () => {
    const full = join(dir, 'full');
    execFileSync('mknod', [full, 'c', '1', '7']);
    const r = await runCli(['--snapshot', SNAP, 'dump', '-o', full]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot write ${full}: no space left on the device`);
    expect(statSync(full).isCharacterDevice()).toBe(true);
  });

  it('a folder as the output is refused, left untouched', async () => {
    const folder = join(dir, 'out-folder');
    mkdirSync(folder);
    const r = await runCli(['--snapshot', SNAP, 'dump', '-o', folder]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`Cannot write ${folder}: it is a folder; give a file name`);
    expect(statSync(folder).isDirectory()).toBe(true);
    expect(existsSync(join(folder, 'x'))).toBe(false);
  });

  it('an output file that cannot be written is refused before any server is started, with nothing printed', async () => {
    const folder = join(dir, 'early-folder');
    mkdirSync(folder);
    const readOnly = join(dir, 'read-only.json');
    writeFileSync(readOnly, 'kept', { mode: 0o444 });
    // A server that leaves a mark when it is started: the refusal must come before the connect.
    const mark = join(dir, 'server-started');
    const server = `${JSON.stringify(process.execPath)} -e ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(mark)}, '')`)}`;
    for (const target of [folder, readOnly])
      for (const argv of [
        ['dump', '-o', target],
        ['condense', '-o', target],
        ['budget', '--max', '100000', '--apply', '-o', target],
        ['audit', '--html', target],
      ]) {
        const r = await runCli(['--stdio', server, '--name', 'marker', ...argv], { cwd: dir });
        expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stderr).toContain(`Cannot write ${target}`);
        expect(r.stdout).toBe('');
        expect(existsSync(mark), argv.join(' ')).toBe(false);
      }
    expect(readFileSync(readOnly, 'utf8')).toBe('kept');
  });

  it('budget -o without --apply is a usage error, not a run that writes nothing', async () => {
    const out = join(dir, 'plan.json');
    const r = await runCli(['--snapshot', SNAP, 'budget', '--max', '100000', '-o', out], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--apply');
    expect(existsSync(out)).toBe(false);
  });
});

describe('safe-write temp files in a shared folder', () => {
  it('never follows a symlink planted at a guessable temp name (the old pid.counter names), and leaves it alone', async () => {
    const shared = join(dir, 'sticky');
    mkdirSync(shared, { mode: 0o1777 });
    const victim = join(dir, 'victim-secret');
    writeFileSync(victim, 'secret', { mode: 0o600 });
    // Every name the earlier scheme could pick for the first writes of this process.
    const planted = Array.from({ length: 50 }, (_, k) => join(shared, `.out.json.${process.pid}.${k + 1}.tmp`));
    for (const p of planted) symlinkSync(victim, p);
    for (let i = 0; i < 3; i++) await writeFileSafe(join(shared, 'out.json'), `{"n":${i}}`);
    expect(readFileSync(victim, 'utf8')).toBe('secret');
    expect(readFileSync(join(shared, 'out.json'), 'utf8')).toBe('{"n":2}');
    expect(planted.every((p) => lstatSync(p).isSymbolicLink())).toBe(true);
  });

  it('a new file gets the umask mode, an existing file keeps its own, a credential 0600', async () => {
    const fresh = join(dir, 'fresh.json');
    await writeFileSafe(fresh, '{}');
    expect(statSync(fresh).mode & 0o777).toBe(0o666 & ~process.umask());
    const kept = join(dir, 'kept.json');
    writeFileSync(kept, 'old', { mode: 0o640 });
    await writeFileSafe(kept, '{}');
    expect(statSync(kept).mode & 0o777).toBe(0o640);
    const secret = join(dir, 'tokens', 'store.json');
    await writeFileSafe(secret, '{}', { mode: 0o600 });
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });
});

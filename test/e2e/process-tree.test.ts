// The process-tree helper against a real three-level tree: wrapper.mjs (npx-like) → wrapper.mjs → hang.mjs.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/paths.js';
import {
  descendantPids,
  expectTreeGone,
  listProcessesFromProc,
  listProcessesFromPs,
  killTree,
  snapshotTree,
  survivors,
  waitForTreeGone,
  type ProcessInfo,
} from '../helpers/process-tree.js';

const WRAPPER = fixture('servers', 'misbehaving', 'wrapper.mjs');
const HANG = fixture('servers', 'misbehaving', 'hang.mjs');

interface Tree {
  root: ChildProcess;
  pids: { wrapper: number; child: number; grandchild: number };
}

let started: ProcessInfo[] = [];

/** Starts wrapper → wrapper → hang (in its own process group) and resolves once all three announced their pids. */
function startTree(hangArgs: string[] = []): Promise<Tree> {
  const root = spawn(process.execPath, [WRAPPER, WRAPPER, HANG, '--announce-pid', ...hangArgs], {
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tree did not start:\n${err}`)), 20_000);
    root.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const wrappers = [...err.matchAll(/wrapper pid (\d+)/g)].map((m) => Number(m[1]));
      const grandchild = /fixture pid (\d+)/.exec(err)?.[1];
      if (wrappers.length === 2 && grandchild) {
        clearTimeout(timer);
        resolve({ root, pids: { wrapper: wrappers[0]!, child: wrappers[1]!, grandchild: Number(grandchild) } });
      }
    });
  });
}

afterEach(() => {
  killTree(started);
  started = [];
});

describe('process-tree helper', () => {
  it('lists every descendant of a running process, children of children included', async () => {
    const { root, pids } = await startTree();
    started = snapshotTree(root.pid!);
    expect(root.pid).toBe(pids.wrapper);
    expect(descendantPids(pids.wrapper).sort()).toEqual([pids.child, pids.grandchild].sort());
    expect(descendantPids(pids.child)).toEqual([pids.grandchild]);
    expect(descendantPids(pids.grandchild)).toEqual([]);
    expect(started.map((p) => p.pid)).toEqual([pids.wrapper, ...descendantPids(pids.wrapper)]);
    expect(started.find((p) => p.pid === pids.grandchild)?.command).toContain('hang.mjs');
  });

  it('reports the grandchildren that survive when only the top process is killed (the npx case)', async () => {
    const { root, pids } = await startTree();
    started = snapshotTree(root.pid!);
    process.kill(pids.wrapper, 'SIGKILL');
    const left = await waitForTreeGone(started, 1_000);
    expect(left.map((p) => p.pid).sort()).toEqual([pids.child, pids.grandchild].sort());
    await expect(expectTreeGone(started, 500)).rejects.toThrow(
      new RegExp(`2 of 3 processes still running[\\s\\S]*pid ${pids.grandchild} .*hang\\.mjs`),
    );
    // Re-parented to init now: a fresh walk from the dead root no longer finds them, the snapshot still does.
    expect(descendantPids(pids.wrapper)).toEqual([]);
    expect(survivors(started)).toHaveLength(2);
  });

  it('finds nothing left once the whole process group is killed', async () => {
    const { root } = await startTree();
    started = snapshotTree(root.pid!);
    expect(started).toHaveLength(3);
    process.kill(-root.pid!, 'SIGKILL');
    await expectTreeGone(started, 5_000);
    expect(survivors(started)).toEqual([]);
  });

  it('catches a member that ignores SIGTERM sent to the group', async () => {
    const { root, pids } = await startTree(['--ignore-sigterm']);
    started = snapshotTree(root.pid!);
    process.kill(-root.pid!, 'SIGTERM');
    const left = await waitForTreeGone(started, 1_500);
    expect(left.map((p) => p.pid)).toEqual([pids.grandchild]);
    process.kill(pids.grandchild, 'SIGKILL');
    await expectTreeGone(started, 5_000);
  });

  it('the ps fallback (systems without /proc) sees the same tree as /proc', async () => {
    const { root, pids } = await startTree();
    started = snapshotTree(root.pid!);
    const relation = (list: { pid: number; ppid: number }[]) =>
      [pids.wrapper, pids.child, pids.grandchild].map((pid) => [pid, list.find((p) => p.pid === pid)?.ppid]);
    const fromPs = listProcessesFromPs();
    expect(relation(fromPs)).toEqual(relation(listProcessesFromProc()));
    expect(relation(fromPs).map(([, ppid]) => ppid)).toEqual([process.pid, pids.wrapper, pids.child]);
    expect(fromPs.find((p) => p.pid === pids.grandchild)?.command).toContain('hang.mjs');
  });
});

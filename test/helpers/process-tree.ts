// Process trees for e2e tests: snapshot a process and all its descendants while they run, then check that none of
// them is left after a shutdown. The snapshot must be taken before the shutdown: once a parent dies its children are
// re-parented to init, and a later walk from the root would no longer find them. Each entry keeps the process's
// start time, so a pid reused by an unrelated process is not mistaken for a survivor.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** One letter: R running, S sleeping, Z zombie, … */
  state: string;
  /** Clock ticks since boot (/proc) or the ps start time; '' when unknown. */
  startTime: string;
  command: string;
}

function readProc(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command sits in parentheses and may itself contain spaces or ')': split after the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    let command = stat.slice(stat.indexOf('(') + 1, close);
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      if (cmdline) command = cmdline;
    } catch {
      /* keep the short name */
    }
    return { pid, ppid: Number(fields[1]), state: fields[0] ?? '?', startTime: fields[19] ?? '', command };
  } catch {
    return undefined;
  }
}

/** Every process on the machine, from /proc where it exists, else from `ps`. */
export function listProcesses(): ProcessInfo[] {
  return existsSync('/proc/self/stat') ? listProcessesFromProc() : listProcessesFromPs();
}

export function listProcessesFromProc(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is ProcessInfo => p !== undefined);
}

/** The fallback for systems without /proc (macOS): `ps`, with its start time as the reuse guard. */
export function listProcessesFromPs(): ProcessInfo[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat=,lstart=,command='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(\w+ \w+ +\d+ [\d:]+ \d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), state: m[3]!.charAt(0), startTime: m[4]!, command: m[5]! }));
}

/** The pids of every descendant of `pid` (children, their children, …), breadth first. */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const p of listProcesses()) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (out.includes(next)) continue;
    out.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return out;
}

/** The process `pid` and all its descendants as they are now (the root first). */
export function snapshotTree(pid: number): ProcessInfo[] {
  const all = new Map(listProcesses().map((p) => [p.pid, p]));
  return [pid, ...descendantPids(pid)].map((p) => all.get(p)).filter((p): p is ProcessInfo => p !== undefined);
}

/** The members of a snapshot still running: same pid and start time, and not a zombie waiting to be reaped. */
export function survivors(tree: ProcessInfo[]): ProcessInfo[] {
  const now = new Map(listProcesses().map((p) => [p.pid, p]));
  return tree.filter((p) => {
    const cur = now.get(p.pid);
    return cur !== undefined && cur.startTime === p.startTime && cur.state !== 'Z';
  });
}

/** Waits up to `timeoutMs` for every member of the snapshot to end; resolves with those still running. */
export async function waitForTreeGone(tree: ProcessInfo[], timeoutMs = 5_000): Promise<ProcessInfo[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = survivors(tree);
    if (left.length === 0 || Date.now() >= deadline) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Like waitForTreeGone, but throws an error naming each survivor (pid and command line). */
export async function expectTreeGone(tree: ProcessInfo[], timeoutMs = 5_000): Promise<void> {
  const left = await waitForTreeGone(tree, timeoutMs);
  if (left.length > 0) {
    const list = left.map((p) => `  pid ${p.pid} (parent ${p.ppid}): ${p.command}`).join('\n');
    throw new Error(`${left.length} of ${tree.length} processes still running after ${timeoutMs} ms:\n${list}`);
  }
}

/** Ends every member of a snapshot still running with SIGKILL (test clean-up when an assertion failed). */
export function killTree(tree: ProcessInfo[]): void {
  for (const p of survivors(tree)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      /* gone meanwhile */
    }
  }
}

// Which process started each server, while a real client runs: every process of the client's HOME (its environment
// says HOME=<the client's temporary HOME>, so other tests' servers are not counted) whose command line runs one of
// the servers' entry scripts is recorded with its parent. Polled from /proc (Linux; the real-client tests run there):
// a server lives as long as the client that started it, far longer than one poll.
import { readFileSync } from 'node:fs';
import { listProcesses, type ProcessInfo } from './process-tree.js';

export interface ServerStart {
  server: string;
  pid: number;
  /** The command line of the process that started it. */
  parent: string;
  parentPid: number;
}

const environOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return '';
  }
};

/** serve's own command line: `… mcp-smart[.js] … serve …`. */
export const isServe = (command: string): boolean => /mcp-smart(\.js)?\s(.*\s)?serve(\s|$)/.test(command);

/**
 * Records the server processes started under `home` until the returned stop() is called; `scripts` maps a server's
 * name to the script its command line runs (its first argument).
 */
export function watchServerStarts(
  home: string,
  scripts: Record<string, string>,
): { stop: () => Promise<ServerStart[]> } {
  const seen = new Map<string, ServerStart>();
  const poll = (): void => {
    const all = listProcesses();
    const byPid = new Map<number, ProcessInfo>(all.map((p) => [p.pid, p]));
    for (const p of all) {
      const server = Object.keys(scripts).find((name) => p.command.split(' ').includes(scripts[name]!));
      if (!server || seen.has(`${p.pid}:${p.startTime}`)) continue;
      if (!environOf(p.pid).split('\0').includes(`HOME=${home}`)) continue;
      const parent = byPid.get(p.ppid);
      seen.set(`${p.pid}:${p.startTime}`, { server, pid: p.pid, parent: parent?.command ?? '?', parentPid: p.ppid });
    }
  };
  poll();
  const timer = setInterval(poll, 150);
  return {
    stop: async () => {
      clearInterval(timer);
      poll();
      return [...seen.values()];
    },
  };
}

/**
 * After the switch: no server started by anything but serve, and no serve started one server twice. Returns the
 * starts per server (over every serve the client started: a client may start serve more than once, e.g. Gemini CLI's
 * `mcp list` health check and then `gemini -p`).
 */
export function startsThroughServe(starts: ServerStart[]): { outside: ServerStart[]; twice: string[] } {
  const outside = starts.filter((s) => !isServe(s.parent));
  const perServe = new Map<string, number>();
  for (const s of starts)
    perServe.set(`${s.parentPid} ${s.server}`, (perServe.get(`${s.parentPid} ${s.server}`) ?? 0) + 1);
  const twice = [...perServe].filter(([, n]) => n > 1).map(([k]) => k);
  return { outside, twice };
}

/**
 * The cold start of tools/auto mode over stdio (issue 40.1): the servers whose lists are not cached are listed once
 * the client's first message has said what it declares, since serve declares that to them at initialize. Their
 * processes need not wait for it: they are started as soon as the config is read, so a server's own boot (~0.4 s
 * for a Node server) overlaps serve's start and the client's handshake, and the pool's first start of each adopts
 * its process and begins the MCP session there (initialize with the client's declaration).
 */
import type { Socket } from 'node:net';
import { platform } from 'node:os';
import {
  endProcessTree,
  inheritedFrom,
  spawnServerProcess,
  type ServerProcess,
} from '../core/connect/server-process.js';
import { SERVER_START_CONCURRENCY } from '../core/map-limited.js';
import type { ServerDefinition } from '../core/types.js';
import { unsetReason } from './unset-variables.js';

/** Whether a process and its pipes keep serve's event loop alive. */
function holdLoop(proc: ServerProcess, hold: boolean): void {
  const { child } = proc;
  if (hold) child.ref();
  else child.unref();
  for (const pipe of [child.stdin, child.stdout, child.stderr] as (Socket | null)[]) {
    if (hold) pipe?.ref();
    else pipe?.unref();
  }
}

export class Prespawned {
  private readonly ahead = new Map<ServerDefinition, ServerProcess>();
  /** Serve ended before a start took them (an error after the config was read): their groups are told to end. */
  private readonly atExit = (): void => {
    for (const { child } of this.ahead.values()) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  };

  /**
   * Starts the processes of the first servers the pool will start (it starts SERVER_START_CONCURRENCY at a time,
   * in this order): stdio ones that can start as written. Not on Windows, where servers start through the SDK's own
   * transport. Until a start takes one, it does not keep serve running.
   */
  constructor(defs: readonly ServerDefinition[], debug?: (text: string) => void) {
    if (platform() === 'win32') return;
    const startable = defs.filter((d) => d.transport === 'stdio' && d.command && !unsetReason(d));
    // What a server inherits from serve's environment, as the SDK's transport passes it (server-process.ts).
    const inherited = inheritedFrom(process.env);
    for (const def of startable.slice(0, SERVER_START_CONCURRENCY)) {
      const params = { command: def.command!, args: def.args ?? [], env: def.env, cwd: def.cwd };
      const proc = spawnServerProcess(params, inherited);
      holdLoop(proc, false);
      this.ahead.set(def, proc);
    }
    if (this.ahead.size === 0) return;
    process.once('exit', this.atExit);
    debug?.(`started ${this.ahead.size} server process(es) ahead of the client's declaration`);
  }

  /** The process started for this definition, once: the pool's first start of it adopts it. */
  take(def: ServerDefinition): ServerProcess | undefined {
    const proc = this.ahead.get(def);
    if (!proc) return undefined;
    this.ahead.delete(def);
    holdLoop(proc, true);
    return proc;
  }

  /** Ends the processes no start took (serve ended before it needed them), each with its whole process group. */
  async endUnused(): Promise<void> {
    const unused = [...this.ahead.values()];
    this.ahead.clear();
    process.removeListener('exit', this.atExit);
    await Promise.all(unused.map((proc) => endProcessTree(proc)));
  }
}

// `serve` started by a person on a terminal (stdin a TTY, through util-linux `script`'s pseudo-terminal): it says on
// stderr what it is and how a client starts it, and still answers a JSON-RPC initialize typed in. Started by a
// client (pipes), it says nothing of the kind.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { BIN, fixture } from '../helpers/paths.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'typed-by-hand', version: '1' } },
})}\n`;
const ANSWERED = '"serverInfo":{"name":"mcp-smart"';
const NOTE = 'not an interactive command';
const groups: number[] = [];

afterEach(() => {
  for (const pid of groups.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A folder whose mcp-smart.config.json lists the tiny fixture server. */
function project(): string {
  const dir = tempDir('mcp-smart-serve-terminal-');
  const tiny = {
    command: process.execPath,
    args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
  };
  writeFileSync(join(dir, 'mcp-smart.config.json'), JSON.stringify({ servers: { tiny } }));
  return dir;
}

/** Starts the command, types the initialize request, and resolves with stdout and stderr once it is answered. */
function answerOf(cmd: string, args: string[], cwd: string): Promise<{ out: string; err: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, env: sandboxEnv(cwd), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    if (child.pid) groups.push(child.pid);
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no answer in 20 s\nstdout: ${out}\nstderr: ${err}`)), 20_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(ANSWERED)) {
        clearTimeout(timer);
        resolvePromise({ out, err });
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.stdin.write(INITIALIZE);
  });
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

describe('serve on a terminal', () => {
  it('says what it is and how a client starts it, then still serves', async () => {
    const cwd = project();
    // script gives the command a pseudo-terminal for stdin and stdout; stderr comes through the same terminal.
    const command = [process.execPath, BIN, 'serve'].map(quote).join(' ');
    const { out } = await answerOf('script', ['-qfec', command, '/dev/null'], cwd);
    const text = out.replace(/\r/g, '');
    expect(text).toContain(
      'mcp-smart serve: an MCP server on stdin/stdout for MCP clients (Claude Code, Cursor, Gemini CLI, …), not an interactive command.\n' +
        'mcp-smart serve: a client starts it from its config; `mcp-smart serve --print-config <client>` prints that entry. Serving on stdin now; Ctrl-C stops.\n',
    );
    expect(text.indexOf(NOTE)).toBeLessThan(text.indexOf(ANSWERED));
  });

  it('started by a client (pipes) it answers without the note', async () => {
    const cwd = project();
    const { out, err } = await answerOf(process.execPath, [BIN, 'serve'], cwd);
    expect(out).toContain(ANSWERED);
    expect(err).not.toContain(NOTE);
    expect(out).not.toContain(NOTE);
  });
});

// A bare JSON-RPC client over a child's stdio, for measuring large messages: lines are split in linear time (the
// chunks of a line are joined once, at its end), so the client's own reading does not distort what is measured.
// Used by bench/big-results.mjs and the e2e tests of large results and pings.
import { spawn } from 'node:child_process';

export function startRaw(command, args, { env, cwd } = {}) {
  const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t) => (stderr += t));
  const pending = new Map();
  const notes = [];
  let chunks = [];
  child.stdout.on('data', (chunk) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      chunks.push(chunk.subarray(start, nl));
      const line = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      chunks = [];
      start = nl + 1;
      let msg;
      try {
        msg = JSON.parse(line.toString('utf8'));
      } catch {
        continue;
      }
      if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        p({ ...msg, bytes: line.length });
      } else notes.push(msg);
    }
    if (start < chunk.length) chunks.push(chunk.subarray(start));
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let nextId = 1;
  const send = (msg) => child.stdin.write(JSON.stringify(msg) + '\n');
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  return {
    child,
    send,
    request,
    notes,
    stderr: () => stderr,
    exited,
    /** initialize + initialized (2025-11-25). */
    async open() {
      const r = await request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      return r;
    },
    /** Sends a ping every `everyMs` until stopped; returns the slowest answer's time and the count. */
    pinger(everyMs = 50) {
      let worst = 0;
      let answered = 0;
      let stop = false;
      const loop = (async () => {
        while (!stop) {
          const t = performance.now();
          await request('ping');
          worst = Math.max(worst, performance.now() - t);
          answered++;
          await new Promise((r) => setTimeout(r, everyMs));
        }
      })();
      return {
        stop: async () => {
          stop = true;
          await loop;
          return { worstMs: worst, answered };
        },
      };
    },
    close() {
      child.stdin.end();
      return exited;
    },
  };
}

/** The 2025 `initialize` request (id 1) the start-up benches send by hand, as one JSON-RPC message. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
};

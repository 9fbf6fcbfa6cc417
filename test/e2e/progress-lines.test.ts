// Progress lines on long work (a cold audit of 3,000 tools, a replay of 400 intents and its tuning): drawn on
// stderr when forced with MCP_SMART_PROGRESS=1 (or on a TTY), never on stdout, never with --json, never when not
// a TTY unless forced, and throttled.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('mcp-smart-progress-');
const snapshot = join(dir, 'big.snapshot.json');
const intents = join(dir, 'intents.jsonl');
const WORDS = ['file', 'issue', 'message', 'calendar', 'invoice', 'ticket', 'page', 'user', 'record', 'image'];
const VERBS = ['create', 'read', 'update', 'delete', 'search', 'list'];

beforeAll(() => {
  requireBuild();
  const servers = Array.from({ length: 30 }, (_, s) => ({
    name: `srv${s}`,
    transport: 'stdio',
    status: 'ok',
    tools: Array.from({ length: 100 }, (_, t) => {
      const verb = VERBS[t % VERBS.length]!;
      const noun = WORDS[(s + t) % WORDS.length]!;
      return {
        name: `${verb}_${noun}_${t}`,
        description: `${verb} a ${noun} in service ${s}. Returns the ${noun} as JSON with every field the API has, for example its id, owner and dates.`,
        inputSchema: {
          type: 'object',
          properties: {
            id: { type: 'string', description: `The ${noun} id.` },
            fields: { type: 'array', items: { type: 'string', enum: ['id', 'owner', 'created', 'updated'] } },
          },
          required: ['id'],
        },
      };
    }),
  }));
  writeFileSync(
    snapshot,
    JSON.stringify({ format: 'mcp-smart/snapshot@1', createdAt: '2026-01-01T00:00:00Z', servers }),
  );
  const lines = Array.from({ length: 400 }, (_, i) => {
    const s = i % 30;
    const t = (i * 7) % 100;
    const verb = VERBS[t % VERBS.length]!;
    const noun = WORDS[(s + t) % WORDS.length]!;
    return JSON.stringify({ intent: `${verb} the ${noun} for me`, expected: [`srv${s}.${verb}_${noun}_${t}`] });
  });
  writeFileSync(intents, lines.join('\n') + '\n');
});

const run = (args: string[], env: Record<string, string> = {}) =>
  spawnCli(args, { cwd: dir, env: sandboxEnv(dir, env), timeoutMs: 120_000 });

/** The progress redraws in stderr: `\r\x1b[2K<label> <done>/<total> …`. */
const redraws = (stderr: string, label: string): string[] =>
  stderr.split('\r\x1b[2K').filter((l) => l.startsWith(`${label} `));

describe('progress lines', () => {
  it('a cold audit shows condensing and counting with MCP_SMART_PROGRESS=1, throttled, stdout untouched', async () => {
    const started = Date.now();
    const r = await run(['--snapshot', snapshot, '--no-cache', 'audit'], { MCP_SMART_PROGRESS: '1' });
    const elapsed = Date.now() - started;
    expect(r.code, r.stderr).toBe(0);
    const lines = [...redraws(r.stderr, 'Condensing'), ...redraws(r.stderr, 'Counting tokens')];
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^(Condensing|Counting tokens) \d+\/30 \(\d+%\) — srv\d+$/);
    // At most one redraw per 100 ms of the run (plus the first of each phase).
    expect(lines.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    // The line is cleared before anything else is written to stderr, and stdout never sees it.
    const tail = r.stderr.slice(r.stderr.lastIndexOf('\r\x1b[2K') + 5);
    expect(tail).not.toMatch(/^(Condensing|Counting tokens) /);
    expect(r.stdout).not.toMatch(/\r|\x1b\[2K/);
    expect(r.stdout).toContain('Tool context:');
  }, 120_000);

  it('replay --tune shows replaying and tuning, and nothing without the switch or with --json', async () => {
    const args = ['--snapshot', snapshot, '--no-cache', 'replay', intents, '--tune'];
    const forced = await run(args, { MCP_SMART_PROGRESS: '1' });
    expect(forced.code, forced.stderr).toBe(0);
    const replaying = redraws(forced.stderr, 'Replaying');
    expect(replaying.length).toBeGreaterThan(0);
    for (const l of replaying) expect(l).toMatch(/^Replaying [\d,]+\/400 \(\d+%\) — cases ranked by \d engines$/);
    const tuning = redraws(forced.stderr, 'Tuning');
    expect(tuning.length).toBeGreaterThan(0);
    // Labelled intents carry no sessions, so there are no folds: one search of two rounds over all cases.
    for (const l of tuning) expect(l).toMatch(/^Tuning [0-2]\/2 \(\d+%\) — search rounds, (all cases|done)$/);

    // Without the switch (stderr is a pipe here) and with --json: the same work, no line.
    const plain = await run(args.slice(0, -1));
    const json = await run([...args.slice(0, 2), '--json', ...args.slice(2, -1)], { MCP_SMART_PROGRESS: '1' });
    for (const r of [plain, json]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/\r|\x1b\[2K|Replaying|Tuning/);
    }
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'replay', cases: 400 });
  }, 240_000);
});

// replay printed a missed case's intent as the user typed it: `misses[].intent` in --json (and -o) carried the key
// and password the learned store redacts from the same text. A Claude Code transcript whose call misses the top k.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SNAP = fixture('snapshots', 'replay-demo.json');
const OPENAI = 'sk-proj-AbCdEf1234567890GhIjKlMnOp';
const GITHUB = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const PASSWORD = 'Hunter2Hunter2';

function transcript(dir: string): string {
  const sessions = join(dir, 'sessions', '-home-dev-app');
  mkdirSync(sessions, { recursive: true });
  const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 's1', version: '1.0.98' };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      timestamp: '2025-09-05T12:00:00.000Z',
      message: { role: 'user', content: `deploy with key ${OPENAI} and password=${PASSWORD}, push with ${GITHUB}` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      timestamp: '2025-09-05T12:00:05.000Z',
      message: {
        id: 'm1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'mcp__deploy__run', input: {} }],
        stop_reason: 'tool_use',
      },
    },
  ];
  writeFileSync(join(sessions, 's1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return join(dir, 'sessions');
}

describe('replay hides secrets in the intents it prints', () => {
  it('--no-store --json: the missed intent keeps its words, not the key, password or token', async () => {
    const dir = tempDir('mcp-smart-replay-secrets-');
    const env = { NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache'), MCP_SMART_DATA_DIR: join(dir, 'data') };
    const r = await runCli(['--snapshot', SNAP, 'replay', transcript(dir), '--no-store', '--json'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { misses: { intent: string; expected: string[] }[] };
    const miss = doc.misses.find((m) => m.expected.includes('deploy.run'));
    expect(miss?.intent).toMatch(/^deploy with key \*\*\* and password=\*\*\*/);
    for (const s of [OPENAI, PASSWORD, GITHUB]) expect(r.stdout + r.stderr).not.toContain(s);
  });

  it('the miss lines of discover --queries (table and markdown) hide them too', async () => {
    const dir = tempDir('mcp-smart-queries-secrets-');
    const env = { NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(dir, 'cache'), MCP_SMART_DATA_DIR: join(dir, 'data') };
    const queries = join(dir, 'intents.jsonl');
    const intent = `deploy with key ${OPENAI} and password=${PASSWORD}`;
    writeFileSync(queries, JSON.stringify({ intent, expected: ['everything.echo'] }) + '\n');
    for (const format of ['table', 'markdown']) {
      const r = await runCli(['--snapshot', SNAP, '--format', format, 'discover', '--queries', queries, '-k', '1'], {
        cwd: dir,
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('"deploy with key *** and password=***"');
      for (const s of [OPENAI, PASSWORD]) expect(r.stdout + r.stderr).not.toContain(s);
    }
  });
});

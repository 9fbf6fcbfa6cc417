// replay ranks what serve would offer the model (visibleTools under the visibility rules), as discover and check
// --queries do. It ranked every tool of the config, the ones the serve section disables too, so a recorded call to a
// disabled tool scored as a hit that the client could never have made. Such a call is now a miss, counted and named
// (hiddenTools / hiddenCalls), never dropped.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonl, turn } from '../helpers/claude-transcript.js';
import { fixture, requireBuild } from '../helpers/paths.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { node, sandbox, type Sandbox } from './serve-harness.js';

requireBuild();
const TIMEOUT_MS = 90_000;
let box: Sandbox;

beforeAll(async () => {
  box = await sandbox('replay-hidden');
  // tiny.json lists search_notes, create_note, delete_note, current_time, echo; the serve section disables one.
  await writeFile(
    join(box.dir, 'mcp-smart.config.json'),
    JSON.stringify({
      mcpServers: {
        notes: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
      },
      serve: { servers: { notes: { disable: ['delete_note'] } } },
    }),
  );
  await writeFile(
    join(box.dir, 'session.jsonl'),
    jsonl(
      ...turn('S1', 1, 'delete the note about the old meeting', 'mcp__notes__delete_note'),
      ...turn('S1', 2, 'search my notes for the meeting', 'mcp__notes__search_notes'),
    ),
  );
});
afterAll(async () => {
  await box.remove();
});

describe('replay ranks the tools serve would offer (a config whose serve section disables a tool)', () => {
  it(
    'a call to the disabled tool is a miss named in hiddenTools; the visible tool is still found',
    async () => {
      const r = await spawnCli(['--no-cache', '--json', 'replay', 'session.jsonl'], {
        cwd: box.dir,
        env: box.env,
        timeoutMs: TIMEOUT_MS,
      });
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as {
        cases: number;
        tools: number;
        hiddenTools: string[];
        hiddenCalls: number;
        unknownTools: string[];
        unknownCalls: number;
        engines: { engine: string; recallAt: Record<string, number> }[];
        misses: { expected: string[]; top: string[] }[];
      };
      expect(doc).toMatchObject({
        cases: 2,
        tools: 4,
        hiddenTools: ['notes.delete_note'],
        hiddenCalls: 1,
        unknownTools: [],
        unknownCalls: 0,
      });
      // Every engine finds search_notes and can never find the tool the client does not see.
      for (const e of doc.engines) expect(e.recallAt['5'], e.engine).toBe(0.5);
      expect(doc.misses.map((m) => m.expected)).toEqual([['notes.delete_note']]);
      expect(doc.misses[0]!.top).not.toContain('notes.delete_note');
      expect(r.stderr).toContain('1 call to 1 tool hidden from the model');
    },
    TIMEOUT_MS,
  );
});

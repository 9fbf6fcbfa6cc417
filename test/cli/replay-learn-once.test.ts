// What replay --learn counts as learned, and which recordings replay recognises: each call learned once whatever
// file, path or copy holds it, a call to a tool not loaded left for a later run, no local path in the store.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaySpec } from '../../src/commands/replay.spec.js';
import { DEFAULT_STORE_TTL_DAYS } from '../../src/core/session/usage-store.js';
import { ev, jsonl, turn } from '../helpers/claude-transcript.js';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

const tmp = (): string => tempDir('mcp-smart-replay-learn-once-');
const tool = (name: string) => ({
  name,
  description: `${name.replace(/_/g, ' ')} tool`,
  inputSchema: { type: 'object' },
});
const server = (name: string, tools: string[]) => ({
  name,
  transport: 'stdio',
  status: 'ok',
  serverInfo: { name, version: '1' },
  tools: tools.map(tool),
});
const ALL = [
  server('files', ['read_file', 'write_file', 'list_dir']),
  server('git-hub', ['create_issue']),
  server('acme.docs', ['search_docs']),
];
function snapshot(cwd: string, name: string, servers = ALL): string {
  const file = join(cwd, name);
  writeFileSync(file, JSON.stringify({ format: 'mcp-smart/snapshot@1', createdAt: '2025-01-01T00:00:00Z', servers }));
  return file;
}
const S1 = [
  ...turn('S1', 1, 'read the notes file', 'mcp__files__read_file'),
  ...turn('S1', 2, 'write the summary file', 'mcp__files__write_file'),
  ...turn('S1', 3, 'list the src folder', 'mcp__files__list_dir'),
];
const env = (cwd: string): Record<string, string> => ({
  NO_COLOR: '1',
  MCP_SMART_CACHE_DIR: join(cwd, 'cache'),
  MCP_SMART_DATA_DIR: join(cwd, 'data'),
});
async function replay(cwd: string, snap: string, ...args: string[]) {
  const r = await runCli(['--snapshot', snap, '--json', 'replay', ...args], { cwd, env: env(cwd) });
  return { ...r, doc: r.stdout.startsWith('{') ? JSON.parse(r.stdout) : undefined };
}
const store = (cwd: string, name = 'store.json') => JSON.parse(readFileSync(join(cwd, name), 'utf8'));

describe('replay --learn counts as learned only what it learned', () => {
  it('calls to a server not loaded are learned by a later run that loads it', async () => {
    // The store recorded the session as learned ({"MEM": 2}); once git-hub was back: "Learned 0 cases".
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'mem.jsonl'),
      jsonl(
        ...turn('MEM', 1, 'show the memory graph', 'mcp__memory__read_graph'),
        ...turn('MEM', 2, 'open an issue about the crash', 'mcp__git-hub__create_issue'),
      ),
    );
    const without = snapshot(
      cwd,
      'no-git-hub.json',
      ALL.filter((s) => s.name !== 'git-hub'),
    );
    const first = await replay(cwd, without, 'mem.jsonl', '--learn', '--store', 'store.json');
    expect(first.doc.learned).toMatchObject({ cases: 0, alreadyLearned: 0, notLearned: 2 });
    expect(store(cwd).tools).toEqual({});
    const back = await replay(cwd, snapshot(cwd, 'all.json'), 'mem.jsonl', '--learn', '--store', 'store.json');
    expect(back.doc.learned).toMatchObject({ cases: 1, alreadyLearned: 0, notLearned: 1 });
    expect(store(cwd).tools['git-hub.create_issue'].success).toBe(1);
    const again = await replay(cwd, snapshot(cwd, 'all.json'), 'mem.jsonl', '--learn', '--store', 'store.json');
    expect(again.doc.learned).toMatchObject({ cases: 0, alreadyLearned: 1, notLearned: 1 });
    expect(store(cwd).tools['git-hub.create_issue'].success).toBe(1);
  });

  it('one session in two files is replayed and learned once; a turn added later is learned alone', async () => {
    // Replayed 6 cases from 1 session, 2 successes per tool, then "Learned 0 cases (4 already learned)".
    const cwd = tmp();
    const snap = snapshot(cwd, 'all.json');
    mkdirSync(join(cwd, 'dup'));
    writeFileSync(join(cwd, 'dup', 's1.jsonl'), jsonl(...S1));
    writeFileSync(join(cwd, 'dup', 's1-backup.jsonl'), jsonl(...S1));
    const first = await replay(cwd, snap, 'dup', '--learn', '--store', 'store.json');
    expect(first.code, first.stderr).toBe(0);
    expect(first.doc).toMatchObject({ cases: 3, sessions: 1, files: [{}, {}] });
    expect(first.doc.learned).toMatchObject({ cases: 3, alreadyLearned: 0 });
    for (const t of ['files.read_file', 'files.write_file', 'files.list_dir'])
      expect(store(cwd).tools[t].success).toBe(1);
    writeFileSync(
      join(cwd, 'dup', 's1.jsonl'),
      jsonl(...S1, ...turn('S1', 4, 'search the docs for setup', 'mcp__acme_docs__search_docs')),
    );
    const second = await replay(cwd, snap, 'dup', '--learn', '--store', 'store.json');
    expect(second.doc.learned).toMatchObject({ cases: 1, alreadyLearned: 3 });
    expect(store(cwd).tools['acme.docs.search_docs'].success).toBe(1);
    expect(store(cwd).tools['files.read_file'].success).toBe(1);
  });

  it('labelled intents reached through a linked folder are the same session; the store names no path', async () => {
    const cwd = tmp();
    const snap = snapshot(cwd, 'all.json');
    mkdirSync(join(cwd, 'labels'));
    writeFileSync(
      join(cwd, 'labels', 'l.jsonl'),
      jsonl(
        { intent: 'read the notes', expected: ['files.read_file'] },
        { intent: 'search the docs', expected: ['acme.docs.search_docs'] },
      ),
    );
    symlinkSync(join(cwd, 'labels'), join(cwd, 'linked'));
    expect((await replay(cwd, snap, 'labels', '--learn', '--store', 'store.json')).doc.learned.cases).toBe(2);
    const via = await replay(cwd, snap, 'linked', '--learn', '--store', 'store.json');
    expect(via.doc.learned).toMatchObject({ cases: 0, alreadyLearned: 2 });
    expect(store(cwd).tools['files.read_file'].success).toBe(1);
    expect(readFileSync(join(cwd, 'store.json'), 'utf8')).not.toContain(cwd);
  });

  it("an older store's per-session counts still count as learned", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, 's1.jsonl'), jsonl(...S1));
    writeFileSync(
      join(cwd, 'old.json'),
      JSON.stringify({
        format: 'mcp-smart/usage@1',
        updatedAt: '2025-03-01T00:00:00Z',
        tools: {},
        sessions: { S1: 2 },
      }),
    );
    const r = await replay(cwd, snapshot(cwd, 'all.json'), 's1.jsonl', '--learn', '--store', 'old.json');
    expect(r.doc.learned).toMatchObject({ cases: 1, alreadyLearned: 2 });
    expect(Object.keys(store(cwd, 'old.json').tools)).toEqual(['files.list_dir']);
  });
});

describe('recordings replay recognises', () => {
  it('Claude Code transcripts opening with many bookkeeping lines', async () => {
    // 50 progress lines, 60 file snapshots or queue operations: "not a recording and was skipped".
    const cwd = tmp();
    const body = (sid: string) => S1.map((r) => ({ ...r, sessionId: sid }));
    mkdirSync(join(cwd, 'r'));
    const many = (n: number, row: (i: number) => unknown) => Array.from({ length: n }, (_, i) => row(i));
    writeFileSync(
      join(cwd, 'r', 'progress.jsonl'),
      jsonl(...many(50, () => ({ type: 'progress', sessionId: 'P', data: {} })), ...body('P')),
    );
    writeFileSync(
      join(cwd, 'r', 'snapshots.jsonl'),
      jsonl(
        ...many(60, (i) => ({
          type: 'file-history-snapshot',
          messageId: `m${i}`,
          snapshot: {},
          isSnapshotUpdate: false,
        })),
        ...body('F'),
      ),
    );
    writeFileSync(
      join(cwd, 'r', 'queue.jsonl'),
      jsonl(...many(70, () => ({ type: 'queue-operation', operation: 'enqueue', sessionId: 'Q' })), ...body('Q')),
    );
    const r = await replay(cwd, snapshot(cwd, 'all.json'), 'r', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('not a recording');
    expect(r.doc).toMatchObject({ cases: 9, sessions: 3, problems: [] });
  });

  it('a Gemini CLI checkpoint is skipped as not a recording, not read as a Cline history', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'r'));
    writeFileSync(join(cwd, 'r', 's1.jsonl'), jsonl(...S1));
    writeFileSync(
      join(cwd, 'r', 'checkpoint-foo.json'),
      JSON.stringify([
        { role: 'user', parts: [{ text: 'hi' }] },
        { role: 'model', parts: [{ text: 'hello' }] },
        { role: 'user', parts: [{ text: 'read the notes' }] },
      ]),
    );
    const r = await replay(cwd, snapshot(cwd, 'all.json'), 'r', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.doc.problems).toEqual([]);
    expect(r.doc.files).toHaveLength(1);
    expect(r.stderr.match(/checkpoint-foo\.json/g)).toHaveLength(1);
  });

  it('says a link that loops loops; counts calls before any user turn as skipped', async () => {
    const cwd = tmp();
    mkdirSync(join(cwd, 'r'));
    symlinkSync('self.jsonl', join(cwd, 'r', 'self.jsonl'));
    const early = ev(
      'assistant',
      'B',
      [{ type: 'tool_use', id: 'x', name: 'mcp__files__read_file', input: {} }],
      '2025-03-01T00:00:00Z',
    );
    writeFileSync(join(cwd, 'r', 'b.jsonl'), jsonl(early, ...S1));
    const r = await replay(cwd, snapshot(cwd, 'all.json'), 'r', '--no-store');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/self\.jsonl:0: is a symbolic link that loops/);
    expect(r.stderr).not.toContain('link to nothing');
    expect(r.doc).toMatchObject({ cases: 3, callsWithoutTurn: 1 });
  });
});

describe('replay --ttl-days', () => {
  it("defaults to the store's rule, the one discover, budget and serve read the store by", async () => {
    // 7 days: replay's figures aged usage unlike discover, and --learn dropped a shared store's older tools.
    expect(replaySpec.options?.find((o) => o.flags.startsWith('--ttl-days'))?.default).toBe(
      String(DEFAULT_STORE_TTL_DAYS),
    );
    const cwd = tmp();
    writeFileSync(
      join(cwd, 'old-and-new.jsonl'),
      jsonl(
        ...turn('T', 1, 'read the notes file', 'mcp__files__read_file', 1),
        ...turn('T', 2, 'list src', 'mcp__files__list_dir', 31),
      ),
    );
    const r = await replay(cwd, snapshot(cwd, 'all.json'), 'old-and-new.jsonl', '--learn', '--store', 'store.json');
    expect(r.doc.learned).toMatchObject({ cases: 2, expired: 0 });
    expect(Object.keys(store(cwd).tools).sort()).toEqual(['files.list_dir', 'files.read_file']);
  });
});

// adopt --scope-from-use reading the project's scope from a real PostgreSQL store (as `store scope` reads it): the
// counts moved in with `store import`, adopt run with `--store postgres://…` → the filter on Gemini CLI's added
// entry names this project's tools only; --dry-run writes nothing; --undo gives settings.json back byte for byte.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectKey, type ProjectUsage } from '../../src/core/session/scope.js';
import { FileUsageStore } from '../../src/core/store/file.js';
import { runCli } from '../helpers/fake-io.js';
import { startPostgres, teamStoreEnv, type PgServer } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(async () => {
  await pg?.stop();
});

const at = 1_700_000_000_000;
const use = (success: number) => ({ success, failure: 0, lastUsed: at });

describe('adopt --scope-from-use with a PostgreSQL store', () => {
  it("writes the project's scope from PostgreSQL as Gemini CLI's includeTools; --dry-run writes nothing; --undo restores", async () => {
    const dir = tempDir('mcp-smart-adopt-scope-pg-');
    const home = join(dir, 'home');
    const project = join(dir, 'project');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(project);
    const settings = join(home, '.gemini', 'settings.json');
    writeFileSync(
      settings,
      '{\n  "mcpServers": {\n    "notes": { "command": "notes-server", "excludeTools": ["delete"] },\n    "tracker": { "command": "tracker-server", "args": ["--x"] }\n  }\n}\n',
    );
    // Gemini CLI loads servers only in a folder the user trusts.
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const before = readFileSync(settings);
    // This project used notes.search and tracker.search (a name both servers have), notes.read, and notes.delete
    // (which the client's own excludeTools hides: not served, so not listed); another project used tracker.create.
    const projects: ProjectUsage = {
      [projectKey(project)]: {
        'notes.search': use(2),
        'notes.read': use(1),
        'notes.delete': use(1),
        'tracker.search': use(1),
      },
      [projectKey(join(dir, 'other'))]: { 'tracker.create': use(5) },
    };
    const file = join(dir, 'usage.json');
    const fileStore = new FileUsageStore(file);
    await fileStore.learn(
      () => ({
        delta: {
          tools: Object.fromEntries(
            ['notes.search', 'notes.read', 'notes.delete', 'tracker.search', 'tracker.create'].map((id) => [
              id,
              { ...use(1), categories: {} },
            ]),
          ),
        },
        sessions: {},
        projects,
      }),
      { now: at, memory: { ttlDays: 0 } },
    );
    await fileStore.close();
    const url = await pg.createDatabase('adopt_scope');
    const env = teamStoreEnv(dir, { HOME: home });
    const imported = await runCli(['store', 'import', file, '--store', url], { cwd: dir, env });
    expect(imported.code, imported.stderr).toBe(0);

    const cli = (args: string[]) => runCli(args, { cwd: project, env });
    const dry = await cli(['--json', 'adopt', 'gemini', '--scope-from-use', '--store', url, '--dry-run']);
    expect(dry.code, dry.stderr + dry.stdout).toBe(0);
    const shown = JSON.parse(dry.stdout) as { scope: { names: string[]; ids: string[]; key: string } };
    expect(shown.scope.names).toEqual(['notes_search', 'read', 'tracker_search']);
    expect(shown.scope.ids).toEqual(['notes.search', 'notes.read', 'tracker.search']);
    expect(shown.scope.key).toBe('includeTools');
    expect(existsSync(join(project, 'mcp-smart.config.json'))).toBe(false);
    expect(readFileSync(settings).equals(before)).toBe(true);

    const applied = await cli(['adopt', 'gemini', '--scope-from-use', '--store', url, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(settings, 'utf8')) as {
      mcpServers: Record<string, { args?: string[]; includeTools?: string[] }>;
      mcp: { excluded: string[] };
    };
    expect(doc.mcpServers.smart!.includeTools).toEqual(['notes_search', 'read', 'tracker_search']);
    expect(doc.mcpServers.smart!.args!.slice(-2)).toEqual(['--mode', 'tools']);
    expect(doc.mcp.excluded).toEqual(['notes', 'tracker']);

    const undone = await cli(['adopt', 'gemini', '--undo']);
    expect(undone.code, undone.stderr).toBe(0);
    expect(Buffer.compare(readFileSync(settings), before)).toBe(0);
  });
});

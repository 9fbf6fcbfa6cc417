// adopt --apply records its switch before editing the client's files (a stop half-way can be undone). When an edit
// is then refused (the file changed since adopt read it: ADOPT_CHANGED), what was written is taken back and the
// switch is forgotten: before, the state left behind made `adopt` say "already runs mcp-smart", `--apply` again do
// nothing, and `--undo` reverse edits the files never had.
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applySwitch, readState } from '../../src/app/use-cases/adopt-switch.js';
import type { AppContext, GlobalOptions } from '../../src/app/services/context.js';
import type { FilePlan } from '../../src/core/adopt/switch-plan.js';
import { SmartError } from '../../src/process/errors.js';
import { fakeIo, runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const entry = {
  command: 'node',
  args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
};

let home: string;
let project: string;
let env: Record<string, string>;
beforeEach(() => {
  home = realpathSync(tempDir('mcp-smart-adopt-refused-'));
  project = join(home, 'proj');
  mkdirSync(project);
  env = { NO_COLOR: '1', HOME: home, MCP_SMART_CACHE_DIR: join(home, 'cache'), MCP_SMART_DATA_DIR: join(home, 'data') };
});

const ctx = (): AppContext => ({ io: fakeIo({ cwd: project, env }), global: {} as GlobalOptions });
const geminiPlan = (file: string): FilePlan => ({
  file,
  syntax: 'json',
  edits: [
    { kind: 'list-add', path: ['mcp', 'excluded'], names: ['notes'] },
    { kind: 'set', path: ['mcpServers', 'smart'], value: { command: 'node' } },
  ],
  says: [],
});

async function refused(plans: FilePlan[], read: Map<string, Buffer | undefined>): Promise<void> {
  const e = await applySwitch(ctx(), 'gemini', plans, read, undefined).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(SmartError);
  expect((e as SmartError).code).toBe('ADOPT_CHANGED');
}

describe('adopt --apply refused half-way', () => {
  it('leaves no switch behind: adopt, --apply again and --undo then behave as if it never ran', async () => {
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { notes: entry } }));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const seen = readFileSync(file);
    // Gemini CLI writes its settings between adopt's read and its edit.
    writeFileSync(file, JSON.stringify({ ui: { theme: 'dark' }, mcpServers: { notes: entry } }));
    const changed = readFileSync(file);
    await refused([geminiPlan(file)], new Map([[file, seen]]));
    expect(readState(ctx(), 'gemini')).toBeUndefined();
    expect(readFileSync(file).equals(changed)).toBe(true);

    const undo = await runCli(['adopt', 'gemini', '--undo'], { cwd: project, env });
    expect(undo.code).toBe(2);
    expect(undo.stderr).toContain('Nothing to undo');
    const again = await runCli(['adopt', 'gemini', '--apply'], { cwd: project, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Switched: Gemini CLI now starts mcp-smart');
  });

  it('a file already switched when a later one is refused is put back byte for byte', async () => {
    const first = join(project, 'a.json');
    const second = join(project, 'b.json');
    writeFileSync(first, '{\n  "mcpServers": {}\n}\n');
    writeFileSync(second, '{}');
    const before = readFileSync(first);
    const read = new Map([
      [first, before],
      [second, Buffer.from('{"old": true}')],
    ]);
    await refused([geminiPlan(first), geminiPlan(second)], read);
    expect(readFileSync(first).equals(before)).toBe(true);
    expect(readState(ctx(), 'gemini')).toBeUndefined();
  });
});

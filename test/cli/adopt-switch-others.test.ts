// adopt --apply / --undo beside what else is in the user's setup: a client file that is a dotfile link left dangling
// (--undo removes the file the switch created where it points and keeps the link), another client's switch that
// serves its servers from the mcp-smart.config.json a --force replaces (warned, named, and said by a later adopt of
// that client), and an edited mcp-smart.config.json named by its changed keys when --undo leaves it as it is.
import { lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { tempDir } from '../helpers/temp.js';

const SERVER = fixture('servers', 'catalog-server.mjs');
const TINY = fixture('servers', 'catalogs', 'tiny.json');

let home: string;
let project: string;
beforeEach(() => {
  home = realpathSync(tempDir('mcp-smart-adopt-others-'));
  project = join(home, 'proj');
  mkdirSync(project);
});

const cli = (...args: string[]): ReturnType<typeof runCli> =>
  runCli(args, {
    cwd: project,
    env: {
      NO_COLOR: '1',
      HOME: home,
      MCP_SMART_CACHE_DIR: join(home, 'cache'),
      MCP_SMART_DATA_DIR: join(home, 'data'),
    },
  });
const entry = (): Record<string, unknown> => ({ command: 'node', args: [SERVER, TINY] });
const undoFiles = (stdout: string): { file: string; result: string; changedSince?: string[] }[] =>
  (JSON.parse(stdout) as { files: { file: string; result: string; changedSince?: string[] }[] }).files;

describe('adopt --undo where the client file was a dangling link', () => {
  it("removes the file the switch created where the link points, and keeps the user's link", async () => {
    mkdirSync(join(project, '.gemini'));
    writeFileSync(join(project, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { notes: entry() } }));
    mkdirSync(join(home, '.gemini'));
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    const link = join(home, '.gemini', 'settings.json');
    const target = join(home, 'dot', 'gemini-settings.json');
    symlinkSync('../dot/gemini-settings.json', link);

    const apply = await cli('adopt', 'gemini', '--apply');
    expect(apply.code, apply.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toContain('"smart"');

    const undo = await cli('--json', 'adopt', 'gemini', '--undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(undoFiles(undo.stdout)).toEqual([{ file: link, result: 'removed', target }]);
    // The link is as the user made it (dangling again), and the file the switch created is gone.
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('../dot/gemini-settings.json');
    expect(existsSync(target)).toBe(false);
  });
});

describe("adopt --force over the mcp-smart.config.json another client's switch serves", () => {
  function twoClients(): void {
    const claude = { projects: { [project]: { mcpServers: { notes: { type: 'stdio', ...entry() } } } } };
    writeFileSync(join(home, '.claude.json'), `${JSON.stringify(claude, null, 2)}\n`);
    mkdirSync(join(project, '.cursor'));
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { docs: entry() } }));
  }

  it('warns naming the client, its servers and the way back; a later adopt of that client says they are unserved', async () => {
    twoClients();
    expect((await cli('adopt', 'claude-code', '--apply')).code).toBe(0);
    // Refused without --force (exit 2 as before), and the warning says what --force would do.
    const refused = await cli('adopt', 'cursor', '--apply');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/warning: Claude Code's switch .* turned off notes/);

    const forced = await cli('adopt', 'cursor', '--apply', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/warning: Claude Code's switch .* turned off notes/);
    expect(forced.stderr).toContain('adopt claude-code --undo');

    const again = await cli('--json', 'adopt', 'claude-code');
    expect(again.code, again.stderr).toBe(0);
    const doc = JSON.parse(again.stdout) as { action: string; notServed?: string[]; switch: string };
    expect(doc.action).toBe('switched');
    expect(doc.notServed).toEqual(['notes']);
    expect(doc.switch).not.toContain('nothing to do');
  });

  it('no warning when no other client is switched here', async () => {
    twoClients();
    expect((await cli('adopt', 'claude-code')).code).toBe(0);
    const forced = await cli('adopt', 'cursor', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).not.toContain('warning: Claude Code');
  });
});

describe('adopt --undo of a replaced mcp-smart.config.json edited since', () => {
  it('keeps it and names the keys changed since adopt wrote it', async () => {
    mkdirSync(join(project, '.cursor'));
    writeFileSync(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { docs: entry() } }));
    const file = join(project, 'mcp-smart.config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { hand: entry() } }));
    expect((await cli('adopt', 'cursor', '--apply', '--force')).code).toBe(0);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, budget: { max: 1000 } }));

    const undo = await cli('--json', 'adopt', 'cursor', '--undo');
    expect(undo.code, undo.stderr).toBe(0);
    expect(undoFiles(undo.stdout).find((f) => f.file === file)).toEqual({
      file,
      result: 'restored-kept',
      changedSince: ['budget'],
    });
  });
});

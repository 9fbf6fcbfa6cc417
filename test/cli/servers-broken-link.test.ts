// A default config location that is a symbolic link to nothing (a dotfile link that broke) is not just "missing":
// a warning names the link and the file it points to, `servers` counts it apart, --debug lists it as a broken link,
// and --json marks it (searched[].brokenLink).
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

describe('a broken config link at a default location', () => {
  it('is named with its target in a warning, the empty hint, --debug and --json', async () => {
    const home = realpathSync(tempDir('mcp-smart-broken-link-'));
    const project = join(home, 'proj');
    mkdirSync(project);
    mkdirSync(join(home, '.cursor'));
    const link = join(home, '.cursor', 'mcp.json');
    const target = join(home, 'dotfiles', 'cursor-mcp.json');
    symlinkSync(target, link);
    symlinkSync('../gone.json', join(project, '.mcp.json'));
    const o = { cwd: project, env: { HOME: home, NO_COLOR: '1', MCP_SMART_CACHE_DIR: join(home, 'cache') } };

    const r = await runCli(['servers'], o);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${link} is a symbolic link to ${target}, which does not exist`);
    expect(r.stderr).toContain(`${join(project, '.mcp.json')} is a symbolic link to ${join(home, 'gone.json')}`);
    expect(r.stdout).toContain('2 broken symbolic links');

    const debug = await runCli(['servers', '--debug'], o);
    expect(debug.stderr).toContain(`broken link ${link} -> ${target}`);
    expect(debug.stderr).not.toContain(`missing ${link}`);

    const json = await runCli(['servers', '--json'], o);
    const searched = (JSON.parse(json.stdout) as { searched: { file: string; found: boolean; brokenLink?: string }[] })
      .searched;
    expect(searched.find((s) => s.file === link)).toEqual({ file: link, found: false, brokenLink: target });
  });
});

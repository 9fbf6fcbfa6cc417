// A key given twice in a JSON config keeps its last value (as JSON.parse, and every client, reads it), and
// the user is told which key, in which file, instead of one entry silently winning.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('duplicate keys in a config file', () => {
  it('warns naming each duplicated key path and the file; the last value is used', async () => {
    const dir = tempDir('mcp-smart-dup-keys-');
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      `{
  "mcpServers": {
    "github": { "command": "first-github" },
    "notes": { "command": "notes", "args": ["a"], "args": ["b"] },
    "github": { "command": "second-github" }
  }
}`,
    );
    const r = await runCli(['--config', config, '--json', 'servers'], { cwd: dir, env: sandboxEnv(dir) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      `warning: ${config}: keys mcpServers.github, mcpServers.notes.args are given more than once; the last value is used.`,
    );
    const listed = (JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name);
    expect(listed).toEqual(['github', 'notes']);
  });

  it('says nothing for a file without duplicates', async () => {
    const dir = tempDir('mcp-smart-dup-keys-');
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { github: { command: 'gh' } } }));
    const r = await runCli(['--config', config, 'servers'], { cwd: dir, env: sandboxEnv(dir) });
    expect(r.stderr).not.toContain('more than once');
  });
});

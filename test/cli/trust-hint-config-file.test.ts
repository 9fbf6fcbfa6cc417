// A --config file that changed since it was approved is approved with `mcp-smart trust -c <file>`: the servers
// summary and the PROJECT_NOT_TRUSTED error said `mcp-smart trust`, which answers "Nothing to approve".
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

describe('a changed -c file', () => {
  it('every hint names `mcp-smart trust -c <file>`, and that command approves it', async () => {
    const dir = tempDir('mcp-smart-trust-hint-');
    const file = join(dir, 'x.json');
    const env = {
      NO_COLOR: '1',
      HOME: join(dir, 'home'),
      MCP_SMART_CACHE_DIR: join(dir, 'cache'),
      MCP_SMART_DATA_DIR: join(dir, 'data'),
      MCP_SMART_TRUST_PROJECT: '',
    };
    const cli = (...argv: string[]) => runCli(argv, { cwd: dir, env });
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node' } } }));
    expect((await cli('-c', 'x.json', 'servers')).code).toBe(0);
    writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node', args: ['1'] } } }));
    const hint = `\`mcp-smart trust -c ${file}\``;
    const listed = await cli('-c', 'x.json', 'servers');
    expect(listed.stdout).toContain(`not started until approved (a): run ${hint}, or pass --trust-project`);
    const audit = await cli('-c', 'x.json', 'audit');
    expect(audit.code).toBe(2);
    expect(audit.stderr).toContain(`then approve with ${hint}`);
    expect(listed.stdout + audit.stderr).not.toMatch(/`mcp-smart trust`/);
    const trusted = await cli('trust', '-c', file);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect((await cli('-c', 'x.json', 'servers')).stdout).toContain('1 server, 1 enabled.');
  });
});

// A plain word in a credential's place (API_KEY=object, a placeholder) must not rewrite every "object" in
// what we print and write; a real credential in the same place is still hidden (real server process).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('redaction by where a value comes from', () => {
  it('dump -o keeps "type":"object" with API_KEY=object, and hides a real key echoed by the server', async () => {
    const dir = tempDir('mcp-smart-redact-words-');
    const config = join(dir, 'servers.json');
    const key = 'sk-live-9f8e7d6c5b4a3210';
    const server = (env: Record<string, string>): object => ({
      command: process.execPath,
      args: [
        fixture('servers', 'catalog-server.mjs'),
        fixture('servers', 'catalogs', 'tiny.json'),
        '--instructions',
        `key ${key}`,
      ],
      env,
    });
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { plain: server({ API_KEY: 'object', AUTH_MODE: 'text' }), real: server({ API_KEY: key }) },
      }),
    );
    const out = join(dir, 'snap.json');
    const run = await runCli(['--config', config, 'dump', '-o', out], { cwd: dir, env: sandboxEnv(dir) });
    expect(run.code).toBe(0);
    const written = readFileSync(out, 'utf8');
    expect(written).toContain('"type": "object"');
    expect(written).not.toContain('"type": "***"');
    expect(written).not.toContain(key);
    expect(written).toContain('key ***');
  });
});

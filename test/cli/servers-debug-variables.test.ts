// `servers --debug` shows a field that references a variable as the file wrote it, so it names the variable
// the file really used, even when another referenced variable has the same value.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { sandboxEnv } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

describe('servers --debug and expanded variables', () => {
  it('names the variable the argument was written with, not another one of the same value', async () => {
    const dir = tempDir('mcp-smart-debug-vars-');
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          app: { command: 'app-server', args: ['--dir', '${WORK}', '--plain'], env: { ROOT: '${SERVICE_DIR}' } },
        },
      }),
    );
    const env = sandboxEnv(dir, { WORK: '/srv/app', SERVICE_DIR: '/srv/app' });
    const r = await runCli(['--config', config, 'servers', '--debug'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const doc = r.stdout + r.stderr;
    expect(doc).toContain('"--dir",\n        "${WORK}",\n        "--plain"');
    expect(doc).not.toContain('${SERVICE_DIR}"');
    expect(doc).not.toContain('/srv/app');
  });

  it('keeps the written form inside an argument, with ${env:VAR} and a ${VAR:-default} whose variable is unset', async () => {
    const dir = tempDir('mcp-smart-debug-vars-');
    const config = join(dir, 'servers.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          app: { command: 'app-server', args: ['--dir=${WORK}/x', '${env:OTHER}', '${MISSING:-/srv/app}'] },
        },
      }),
    );
    const env = sandboxEnv(dir, { WORK: '/srv/app', OTHER: '/srv/app' });
    const r = await runCli(['--config', config, 'servers', '--debug'], { cwd: dir, env });
    expect(r.code).toBe(0);
    const doc = r.stdout + r.stderr;
    expect(doc).toContain('"--dir=${WORK}/x",\n        "${env:OTHER}",\n        "${MISSING:-/srv/app}"');
    expect(doc).not.toContain('/srv/app/x');
  });
});

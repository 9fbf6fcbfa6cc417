import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { demoServerDefinitions } from '../../src/core/config/demo.js';
import { SmartError } from '../../src/process/errors.js';
import { REPO } from '../helpers/paths.js';
import { request } from '../helpers/config-request.js';
import { tempDir } from '../helpers/temp.js';

const scratch = tempDir('mcp-smart-demo-test-');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('demo servers', () => {
  it('runs the installed packages with node, filesystem scoped to the scratch folder', async () => {
    const r = await loadServerDefinitions(request({ demo: true, demoScratchDir: scratch, nodePath: '/opt/node' }));
    const pkg = (p: string): string => join(REPO, 'node_modules', '@modelcontextprotocol', p, 'dist', 'index.js');
    expect(r.servers.map((s) => [s.name, s.command, s.args, s.scope, s.source])).toEqual([
      ['everything', '/opt/node', [pkg('server-everything'), 'stdio'], 'demo', 'demo'],
      ['filesystem', '/opt/node', [pkg('server-filesystem'), scratch], 'demo', 'demo'],
      ['memory', '/opt/node', [pkg('server-memory')], 'demo', 'demo'],
      ['sequential-thinking', '/opt/node', [pkg('server-sequential-thinking')], 'demo', 'demo'],
    ]);
    expect(r.servers.find((s) => s.name === 'memory')?.env).toEqual({
      MEMORY_FILE_PATH: join(scratch, 'memory.jsonl'),
    });
    for (const s of r.servers) expect(existsSync(s.args?.[0] ?? '')).toBe(true);
    expect(readFileSync(join(scratch, 'README.md'), 'utf8')).toContain('mcp-smart demo folder');
    // Default locations are not searched with --demo.
    expect(r.searched.every((s) => s.file.endsWith('mcp-smart.config.json'))).toBe(true);
  });

  it('keeps an existing README', async () => {
    await demoServerDefinitions({ nodePath: 'node', scratchDir: scratch });
    await demoServerDefinitions({ nodePath: 'node', scratchDir: scratch });
    expect(existsSync(join(scratch, 'README.md'))).toBe(true);
  });

  it('a missing package is DEMO_NOT_INSTALLED naming it', async () => {
    const err = await demoServerDefinitions({
      nodePath: 'node',
      scratchDir: scratch,
      resolvePackageJson: (pkg) => {
        if (pkg.endsWith('-memory')) throw new Error('Cannot find module');
        return join(REPO, 'node_modules', pkg, 'package.json');
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SmartError);
    expect((err as SmartError).code).toBe('DEMO_NOT_INSTALLED');
    expect((err as SmartError).message).toContain('@modelcontextprotocol/server-memory');
  });
});

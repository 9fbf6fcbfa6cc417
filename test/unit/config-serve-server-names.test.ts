// A misspelt server name in serve.servers (under load: "off" or disable) hid nothing and said nothing: each name
// that is not a configured server is now a warning naming it, the closest server and the servers there are.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { request } from '../helpers/config-request.js';
import { tempDir } from '../helpers/temp.js';

const SERVERS = { mcpServers: { notes: { command: 'node' }, files: { command: 'node' } } };

async function load(serve: unknown, over: Parameters<typeof request>[0] = {}) {
  const cwd = tempDir('mcp-smart-serve-names-');
  const file = join(cwd, 'mcp-smart.config.json');
  writeFileSync(file, JSON.stringify({ ...SERVERS, serve }));
  return { file, r: await loadServerDefinitions(request({ cwd, configFiles: [file], ...over })) };
}

describe('serve.servers names that are not configured servers', () => {
  it('each is named in a warning with the closest server and the list', async () => {
    const { file, r } = await load({
      servers: { nope: { load: 'eager' }, note: { load: 'off' }, notes: {}, xyzzy: {} },
    });
    expect(r.warnings).toEqual([
      `${file}: serve.servers.nope: no server "nope" is configured, so this entry applies to nothing. Did you mean "notes"? Servers: files, notes.`,
      `${file}: serve.servers.note: no server "note" is configured, so this entry applies to nothing. Did you mean "notes"? Servers: files, notes.`,
      `${file}: serve.servers.xyzzy: no server "xyzzy" is configured, so this entry applies to nothing. Servers: files, notes.`,
    ]);
  });

  it('configured names, and ad-hoc servers named with --name, give no warning', async () => {
    const { r } = await load(
      { servers: { notes: { disable: ['x'] }, mine: { load: 'defer' } } },
      { adhoc: [{ kind: 'stdio', value: 'node x.js', name: 'mine' }] },
    );
    expect(r.warnings).toEqual([]);
  });

  it('an unnamed ad-hoc server (named by its serverInfo later) leaves the check out', async () => {
    const { r } = await load({ servers: { later: {} } }, { adhoc: [{ kind: 'stdio', value: 'node x.js' }] });
    expect(r.warnings).toEqual([]);
  });
});

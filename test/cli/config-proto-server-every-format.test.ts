// A server named "__proto__" is a server like any other in every config format we read, also in JSON with
// comments and trailing commas (VS Code, Cursor): it is listed by name, never dropped, never set as a prototype.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-smart-proto-config-'));
const home = join(dir, 'home');
mkdirSync(home);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = (n: string): string => `{ "command": "node", "args": ["${n}.js"] }`;
/** A JSON client config with a comment, the servers under `key`, and a trailing comma when `jsonc`. */
const jsonConfig = (key: string, jsonc: boolean): string =>
  (jsonc ? '// servers of this project\n' : '') +
  `{\n  "${key}": {\n` +
  (jsonc ? '    /* the odd one */\n' : '') +
  `    "__proto__": ${entry('a')},\n    "plain": ${entry('b')}${jsonc ? ',' : ''}\n  }\n}\n`;

const FILES: [string, string][] = [
  ['.mcp.json', jsonConfig('mcpServers', false)],
  ['.mcp.json', jsonConfig('mcpServers', true)],
  [join('.cursor', 'mcp.json'), jsonConfig('mcpServers', true)],
  [join('.vscode', 'mcp.json'), jsonConfig('servers', true)],
  [join('.roo', 'mcp.json'), jsonConfig('mcpServers', true)],
  [join('.gemini', 'settings.json'), jsonConfig('mcpServers', true)],
  ['mcp-settings.jsonc', jsonConfig('mcpServers', true)],
  [
    join('.codex', 'config.toml'),
    '# servers of this project\n[mcp_servers.__proto__]\ncommand = "node"\nargs = ["a.js"]\n\n[mcp_servers.plain]\ncommand = "node"\nargs = ["b.js"]\n',
  ],
];

describe('a server named __proto__ in every config format', () => {
  FILES.forEach(([name, text], i) => {
    it(`${name}${text.startsWith('//') ? ' (with comments)' : ''}: listed as a server named __proto__`, async () => {
      const file = join(dir, String(i), name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      const r = await runCli(['--config', file, 'servers', '--json'], {
        cwd: join(dir, String(i)),
        env: { HOME: home, NO_COLOR: '1' },
      });
      expect(r.code, r.stderr).toBe(0);
      const listed = (JSON.parse(r.stdout) as { servers: { name: string; transport: string; source: string }[] })
        .servers;
      expect(listed.map((s) => s.name).sort()).toEqual(['__proto__', 'plain']);
      // Its entry was read (a stdio server needs its command), from this file.
      expect(listed.find((s) => s.name === '__proto__')).toMatchObject({ transport: 'stdio', source: file });
      // Nothing reached Object.prototype.
      expect(({} as Record<string, unknown>).command).toBeUndefined();
      expect(({} as Record<string, unknown>).args).toBeUndefined();
    });
  });
});

describe('a config nested far too deeply', () => {
  it('is exit 2 naming the file, not a stack overflow', async () => {
    const file = join(dir, 'deep', '.mcp.json');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '{"mcpServers": {"x": ' + '['.repeat(200_000) + ']'.repeat(200_000) + '}}');
    const r = await runCli(['--config', file, 'servers', '--json'], {
      cwd: dirname(file),
      env: { HOME: home, NO_COLOR: '1' },
    });
    expect(r.code).toBe(2);
    const message = (JSON.parse(r.stdout) as { error: { message: string } }).error.message;
    expect(message).toContain(file);
    expect(message).toContain('nested too deeply');
  });
});

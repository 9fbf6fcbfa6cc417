// `serve --print-config` reads the setup it carries over and names the variables its servers refer to, for the
// clients that would not pass them on to serve (Codex, Gemini CLI) — names only, never a value. The real CLIs run the
// printed lines in test/e2e/real-clients-print-env.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'tok-4711-secret';

/** A -c file: a stdio server with a reference, a literal and an envFile whose path has one; a remote with a header. */
function project(): string {
  const cwd = tempDir('mcp-smart-print-vars-');
  const servers = {
    notes: {
      command: 'node',
      args: ['notes.mjs', '--data', '${DATA_DIR:-/tmp}'],
      env: { NOTES_TOKEN: '${NOTES_TOKEN}', PLAIN: 'a-literal-serve-passes-itself' },
      envFile: '${ENV_DIR}/notes.env',
    },
    api: { url: 'https://example.test/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
  };
  writeFileSync(join(cwd, 'conf.json'), JSON.stringify({ mcpServers: servers }));
  return cwd;
}

/** The user's environment, with the project folder as HOME (never the real one). */
const envIn = (cwd: string): Record<string, string> => ({
  HOME: cwd,
  NO_COLOR: '1',
  NOTES_TOKEN: SECRET,
  API_TOKEN: SECRET,
  DATA_DIR: '/data',
  ENV_DIR: '/envs',
});

describe('serve --print-config names the variables of the setup it carries over', () => {
  it('codex: env_vars after the add command and in the TOML entry, with every referenced variable', async () => {
    const cwd = project();
    const run = await runCli(['-c', 'conf.json', 'serve', '--print-config', 'codex'], { cwd, env: envIn(cwd) });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter((l) => l.startsWith('env_vars = '));
    expect(lines).toEqual(Array(2).fill('env_vars = ["API_TOKEN", "DATA_DIR", "ENV_DIR", "NOTES_TOKEN"]'));
    expect(run.stdout + run.stderr).not.toContain(SECRET);
    expect(run.stdout).not.toContain('PLAIN');
  });

  it('gemini-cli: -e "NAME=$NAME" on the add command and "$NAME" in the JSON entry; -s narrows them', async () => {
    const cwd = project();
    const run = await runCli(['-c', 'conf.json', '-s', 'api', 'serve', '--print-config', 'gemini'], {
      cwd,
      env: envIn(cwd),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('gemini mcp add -e "API_TOKEN=$API_TOKEN" --scope user mcp-smart ');
    expect(run.stdout).toContain('"env": {\n        "API_TOKEN": "$API_TOKEN"\n      }');
    expect(run.stdout).not.toContain('NOTES_TOKEN');
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('claude-code and the GUI clients pass their environment on: nothing to add', async () => {
    const cwd = project();
    for (const client of ['claude-code', 'cursor']) {
      const run = await runCli(['-c', 'conf.json', 'serve', '--print-config', client], { cwd, env: envIn(cwd) });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).not.toMatch(/NOTES_TOKEN|env_vars|"env"/);
    }
  });

  it('a setup without references adds nothing; a -c file that is missing is named (exit 2)', async () => {
    const cwd = tempDir('mcp-smart-print-vars-');
    writeFileSync(join(cwd, 'plain.json'), JSON.stringify({ mcpServers: { a: { command: 'node', env: { K: 'v' } } } }));
    const plain = await runCli(['-c', 'plain.json', 'serve', '--print-config', 'codex'], { cwd, env: envIn(cwd) });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toContain('env_vars');
    const missing = await runCli(['-c', 'gone.json', 'serve', '--print-config', 'codex'], { cwd, env: envIn(cwd) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(join(cwd, 'gone.json'));
  });
});

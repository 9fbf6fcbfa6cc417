// The one function adopt and serve --print-config use to name the variables a setup reads from serve's environment.
import { describe, expect, it } from 'vitest';
import { referencedVariables } from '../../src/core/config/referenced-vars.js';
import { normalizeServerEntry } from '../../src/core/config/server-entry.js';
import type { ClientId } from '../../src/core/types.js';

/** An entry as a file of `client` has it, read the way the loader reads it. */
const entry = (client: ClientId | undefined, name: string, value: Record<string, unknown>) => ({
  raw: normalizeServerEntry(name, value, ['mcpServers', name], 'test.json', client),
  ...(client ? { client } : {}),
});

describe('referencedVariables', () => {
  it('names the variables of every place an entry of ours can refer to one, once each and sorted', () => {
    const names = referencedVariables([
      entry(undefined, 'notes', {
        command: '${TOOLS_DIR}/notes',
        args: ['--data', '${DATA_DIR:-/tmp}', 'plain $NOT_A_REFERENCE'],
        cwd: '${WORK_DIR}',
        env: { NOTES_TOKEN: '${NOTES_TOKEN}', USER_ID: '${env:USER_ID}', PLAIN: 'a-literal-value' },
        envFile: '${ENV_DIR}/.env',
      }),
      entry(undefined, 'api', {
        url: 'https://${API_HOST}/mcp',
        headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Team': 'core' },
        oauth: { clientId: 'id', clientSecret: '${API_SECRET}' },
      }),
      // The same variable from a second entry is named once.
      entry(undefined, 'again', { command: 'node', env: { T: '${NOTES_TOKEN}' } }),
    ]);
    expect(names).toEqual([
      'API_HOST',
      'API_SECRET',
      'API_TOKEN',
      'DATA_DIR',
      'ENV_DIR',
      'NOTES_TOKEN',
      'TOOLS_DIR',
      'USER_ID',
      'WORK_DIR',
    ]);
  });

  it('names no variable for literal values, editor variables or inputs (the loader fills or cannot fill those)', () => {
    expect(
      referencedVariables([
        entry(undefined, 'a', {
          command: 'node',
          args: ['${workspaceFolder}/x.js', '${input:token}'],
          env: { KEY: 'sk-literal' },
        }),
      ]),
    ).toEqual([]);
  });

  it("reads each client's own forms: Gemini $VAR, Codex env_vars and header variables but not ${VAR}", () => {
    expect(referencedVariables([entry('gemini', 'g', { command: 'node', env: { T: '$GEMINI_TOKEN' } })])).toEqual([
      'GEMINI_TOKEN',
    ]);
    // Codex passes ${VAR} on as written: not a variable serve must have.
    const codex = referencedVariables([
      entry('codex', 'c', { command: 'node', env: { T: '${NOT_EXPANDED}' }, env_vars: ['CODEX_TOKEN'] }),
      entry('codex', 'r', { url: 'https://x/mcp', bearer_token_env_var: 'REMOTE_TOKEN' }),
    ]);
    expect(codex).toEqual(['CODEX_TOKEN', 'REMOTE_TOKEN']);
    // Claude Code reads ${env:X} as a variable named "env:X", which no shell can set.
    expect(
      referencedVariables([entry('claude-code', 'k', { command: 'node', env: { A: '${env:X}', B: '${CLAUDE_KEY}' } })]),
    ).toEqual(['CLAUDE_KEY']);
  });
});

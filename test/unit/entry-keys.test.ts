// Keys of a client's server entry: a near-miss of a key mcp-smart reads is warned ("did you mean"); a key the client
// documents for itself (VS Code's "dev", its development mode) is not, even within a typo's reach of one.
import { describe, expect, it } from 'vitest';
import { entryKeyWarnings } from '../../src/core/config/entry-keys.js';

const warned = (entry: Record<string, unknown>): string[] => entryKeyWarnings(entry, ['servers', 'app'], 'mcp.json');

describe('entryKeyWarnings', () => {
  it("VS Code's documented dev and envFile keys pass silently", () => {
    const entry = {
      type: 'stdio',
      command: 'node',
      args: ['build/index.js'],
      envFile: '${workspaceFolder}/.env',
      dev: { watch: 'src/**/*.ts', debug: { type: 'node' } },
    };
    expect(warned(entry)).toEqual([]);
  });

  it('a near-miss of a key read is still warned with the key meant', () => {
    expect(warned({ command: 'node', enviroment: {} })).toEqual([
      'mcp.json: servers.app.enviroment: unknown key "enviroment" is ignored. Did you mean "env"?',
    ]);
    expect(warned({ command: 'node', envFiel: '.env' })).toHaveLength(1);
    expect(warned({ command: 'node', envFiel: '.env' })[0]).toContain('Did you mean "envFile"?');
  });
});

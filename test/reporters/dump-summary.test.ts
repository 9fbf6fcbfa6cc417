// dump's per-server line names every list the server answered, resource templates too, in the right number.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { renderDumpSummary } from '../../src/reporters/dump.js';
import type { ServerSnapshot } from '../../src/core/types.js';

const chalk = new Chalk({ level: 0 });
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

describe('renderDumpSummary', () => {
  it('counts tools, prompts, resources and resource templates with their nouns', () => {
    const servers: ServerSnapshot[] = [
      {
        name: 'files',
        transport: 'stdio',
        status: 'ok',
        tools: [tool('read')],
        prompts: [{ name: 'p' }],
        resources: [{ uri: 'file:///a', name: 'a' }],
        resourceTemplates: [
          { uriTemplate: 'file:///{path}', name: 'file' },
          { uriTemplate: 'dir:///{path}', name: 'dir' },
        ],
      },
      { name: 'mail', transport: 'stdio', status: 'ok', tools: [tool('a'), tool('b')], resourceTemplates: [] },
    ];
    expect(renderDumpSummary(servers, 'snap.json', chalk)).toBe(
      '  ok   files  1 tool, 1 prompt, 1 resource, 2 resource templates\n' +
        '  ok   mail   2 tools, 0 resource templates\n' +
        'Wrote snap.json: 2 servers.\n',
    );
  });
});

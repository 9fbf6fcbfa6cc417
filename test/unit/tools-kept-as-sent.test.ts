// A tool without an inputSchema, or with a title, annotations or outputSchema of the wrong type, is kept: counted
// with {"type":"object"} for a missing schema and without the wrong fields, written back to a snapshot as sent,
// and served with an inputSchema (MCP clients require one).
import { describe, expect, it } from 'vitest';
import { toolAsSent, validateTools } from '../../src/core/tool-validate.js';
import { buildSnapshot, parseSnapshot } from '../../src/core/snapshot.js';
import { renderTool } from '../../src/core/tokens/render.js';
import { createTokenCounter } from '../../src/core/tokens/index.js';
import { buildServedView } from '../../src/serve/served-view.js';
import { countingWith } from '../../src/serve/deps.js';

const sent = [
  { name: 'get_time', description: 'The current time.' },
  { name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: { p: {} } } },
  { name: 'odd', title: 5, annotations: 'x', outputSchema: 7, inputSchema: ['object'] },
];

describe('tools kept as sent', () => {
  it('keeps them, counts a missing or non-object inputSchema as {"type":"object"}, and remarks on each', () => {
    const checked = validateTools(structuredClone(sent));
    expect(checked.tools.map((t) => t.name)).toEqual(['get_time', 'read_file', 'odd']);
    expect(checked.problems).toEqual([]);
    expect(checked.remarks).toHaveLength(2);
    const odd = checked.tools[2]!;
    expect(Object.keys(odd)).toEqual(['name']);
    expect(renderTool(odd, 'json')).toBe(renderTool({ name: 'odd', inputSchema: { type: 'object' } }, 'json'));
    expect(renderTool(checked.tools[0]!, 'json')).toBe(
      renderTool({ name: 'get_time', description: 'The current time.', inputSchema: { type: 'object' } }, 'json'),
    );
    expect(toolAsSent(odd)).toEqual(sent[2]);
  });

  it('a snapshot holds them exactly as sent, and reading it back keeps them with one remark', () => {
    const doc = {
      format: 'mcp-smart/snapshot@1',
      createdAt: 'x',
      servers: [{ name: 's', transport: 'stdio', status: 'ok', tools: structuredClone(sent) }],
    };
    const read = parseSnapshot(structuredClone(doc), 'a.json');
    expect(read.servers[0]!.tools).toHaveLength(3);
    expect(read.servers[0]!.notes).toHaveLength(1);
    expect(read.servers[0]!.notes![0]).toMatch(/^a\.json: servers\[0\]\.tools holds 2 tools /);
    const written = JSON.parse(JSON.stringify(buildSnapshot(read.servers, 'x'))) as typeof doc;
    expect(written.servers[0]!.tools).toEqual(sent);
    const again = parseSnapshot(written, 'b.json');
    expect(again.servers[0]!.notes).toHaveLength(1);
  });

  it('serve gives each of them an inputSchema object and no field of the wrong type', async () => {
    const servers = parseSnapshot(
      {
        format: 'mcp-smart/snapshot@1',
        createdAt: 'x',
        servers: [{ name: 's', transport: 'stdio', status: 'ok', tools: structuredClone(sent) }],
      },
      'a.json',
    ).servers;
    const { deps } = countingWith(await createTokenCounter('o200k_base'));
    const view = buildServedView({
      servers,
      mode: 'tools',
      level: 'full',
      config: {},
      rules: { filters: new Map() },
      limit: 1_000_000,
      activated: [],
      key: 'mcp-smart',
      deps,
    });
    const defs = view.tools.map((t) => t.definition);
    expect(defs.map((d) => d.name)).toEqual(['get_time', 'read_file', 'odd']);
    for (const d of defs) {
      expect(d.inputSchema).toMatchObject({ type: 'object' });
      expect(d.title === undefined || typeof d.title === 'string').toBe(true);
      expect(d.annotations === undefined || typeof d.annotations === 'object').toBe(true);
      expect(d.outputSchema).toBeUndefined();
    }
  });
});

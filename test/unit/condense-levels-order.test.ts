// Each condense level costs no more than the one before it (full ≥ lossless ≥ compact ≥ minimal ≥ names), tool by
// tool, on real tool lists (the LiveMCPBench slice: 198 tools of 70 servers; every fixture catalogue) and on the
// shapes of servers with empty schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { condenseTool } from '../../src/core/condense/index.js';
import { createTokenCounter, renderTool } from '../../src/core/tokens/index.js';
import type { CondenseLevel, ToolSnapshot } from '../../src/core/types.js';
import { FIXTURES } from '../helpers/paths.js';

const LEVELS: CondenseLevel[] = ['full', 'lossless', 'compact', 'minimal', 'names'];

function realTools(): ToolSnapshot[] {
  const slice = JSON.parse(readFileSync(join(FIXTURES, 'livemcpbench', 'tools-slice.json'), 'utf8')) as {
    tools: Record<string, { tools: ToolSnapshot[] }>;
  }[];
  const tools = slice.flatMap((e) => Object.values(e.tools).flatMap((s) => s.tools));
  const catalogs = join(FIXTURES, 'servers', 'catalogs');
  for (const f of readdirSync(catalogs).filter((n) => n.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(catalogs, f), 'utf8')) as { tools?: unknown };
    if (Array.isArray(doc.tools))
      tools.push(...(doc.tools as ToolSnapshot[]).filter((t) => typeof t?.name === 'string'));
  }
  // The shapes of servers with empty schemas: none sent, a bare object, an object without properties.
  for (const inputSchema of [undefined, { type: 'object' }, { type: 'object', properties: {} }])
    tools.push({ name: 'get_status', description: 'Status.', ...(inputSchema ? { inputSchema } : {}) });
  return tools;
}

describe('condense levels', () => {
  it('never cost more than the level before them, tool by tool', async () => {
    const counter = await createTokenCounter('o200k_base');
    const tools = realTools();
    expect(tools.length).toBeGreaterThan(200);
    const worse: string[] = [];
    for (const tool of tools) {
      const tokens = LEVELS.map((level) => counter.count(renderTool(condenseTool(tool, level), 'json')));
      for (let i = 1; i < LEVELS.length; i++)
        if (tokens[i]! > tokens[i - 1]!)
          worse.push(`${tool.name}: ${LEVELS[i]} ${tokens[i]} > ${LEVELS[i - 1]} ${tokens[i - 1]}`);
    }
    expect(worse).toEqual([]);
  });
});

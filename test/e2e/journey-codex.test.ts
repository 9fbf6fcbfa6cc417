// Issue 36's journey in the real Codex CLI (offline, temporary HOME): the four demo servers added with `codex mcp
// add` (filesystem's write_file hidden with disabled_tools, memory with a literal MEMORY_FILE_PATH) → `mcp-smart
// adopt codex` as a user runs it → the switch it printed, run in a shell as printed → what Codex lists through its
// app-server (`mcpServerStatus/list`): no tool twice, the adopted servers started only by serve, each once per serve,
// tool tokens not more than direct, the first start on a cold machine (fresh HOME, no cache) listing what a warm one
// does → the memory server, started through the switched entry, writes the user's file → the printed way back →
// config.toml byte for byte as before.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { SWITCH_ENTRY } from '../../src/core/adopt/switch-plan.js';
import { requireBuild } from '../helpers/paths.js';
import {
  cachedBesideCode,
  duplicates,
  inShell,
  journeyServers,
  listed,
  rememberThroughEntry,
  switchClient,
  toolTokens,
} from '../helpers/journey.js';
import { RealClient } from '../helpers/real-clients.js';
import { startsThroughServe, watchServerStarts } from '../helpers/server-starts.js';

beforeAll(requireBuild);

describe('journey: Codex', () => {
  it('adopt → the printed switch → Codex lists each tool once, no more tokens, cold as warm → memory in the user file → way back byte for byte', async () => {
    const client = new RealClient('codex');
    const { memoryFile, files, before, directTools, directTokens, printed } = await switchClient(client);

    const scripts = Object.fromEntries((await journeyServers(client)).map((d) => [d.name, d.args![0]!]));

    // Cold: a fresh HOME where mcp-smart has cached nothing yet; then warm, a second start.
    expect(cachedBesideCode(client)).toEqual([]);
    const watch = watchServerStarts(client.home, scripts);
    const after = await client.toolLists();
    const warm = await client.toolLists();
    const starts = await watch.stop();
    const afterTools = listed(after);
    const connected = after.filter((s) => s.connected).map((s) => s.server);
    // Codex starts only mcp-smart now: the servers behind it are started by serve, each once per serve.
    expect(connected).toEqual([SWITCH_ENTRY]);
    expect(duplicates(afterTools.names)).toEqual([]);
    expect([...(after.find((s) => s.server === SWITCH_ENTRY)?.tools ?? [])].sort()).toEqual(directTools.names);
    expect(listed(warm).ids).toEqual(afterTools.ids);
    const { outside, twice } = startsThroughServe(starts);
    console.info(
      `journey codex: server processes after the switch: ${starts.length} (${starts.map((s) => s.server).join(', ')}), ` +
        `started outside serve: ${outside.length}, twice by one serve: ${twice.length}`,
    );
    expect(outside).toEqual([]);
    expect(twice).toEqual([]);
    expect([...new Set(starts.map((s) => s.server))].sort()).toEqual(Object.keys(scripts).sort());
    const afterTokens = await toolTokens(after.filter((s) => s.connected));
    console.info(
      `journey codex: direct ${directTools.names.length} tools, ${directTokens} tokens; after adopt ` +
        `${afterTools.names.length} tools, ${afterTokens} tokens (servers Codex starts: ${connected.join(', ')})`,
    );
    expect(afterTokens).toBeLessThanOrEqual(directTokens);

    // The memory server, started through the switched entry exactly as config.toml holds it, writes the user's file.
    const toml = parseToml(readFileSync(files[0]!, 'utf8')) as {
      mcp_servers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
    };
    const entity = `journey-codex-${Date.now()}`;
    await rememberThroughEntry(toml.mcp_servers[SWITCH_ENTRY]!, { PATH: client.env.PATH, HOME: client.home }, entity);
    expect(readFileSync(memoryFile, 'utf8')).toContain(entity);

    const back = await inShell(client, printed.undo);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    files.forEach((f, i) => expect(Buffer.compare(readFileSync(f), before[i]!), f).toBe(0));
    const restored = await client.toolLists();
    expect(listed(restored).ids).toEqual(directTools.ids);
  }, 600_000);
});

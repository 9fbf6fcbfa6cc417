// Issue 36's journey in the real Gemini CLI (offline, temporary HOME, trusted folder): the four demo servers added
// with `gemini mcp add --scope user` (filesystem's write_file hidden with --exclude-tools, memory with a literal
// MEMORY_FILE_PATH) → `mcp-smart adopt gemini` as a user runs it → the switch it printed, run in a shell as printed
// → the function declarations Gemini sends the model (a local stand-in for the Gemini API): adopt switches Gemini,
// which sends every declaration on every request and has no tool search, to serve --mode meta, so the model receives
// the meta-tools, at least 60 % fewer tokens than directly; no tool twice; the adopted servers started only by serve,
// each once per serve; the first answer on a cold machine (fresh HOME, no cache) the same as a warm one → the memory
// server, behind the meta-tools, found with find_tool and called with call_tool through the switched entry, writes the
// user's file → the printed way back → settings.json byte for byte.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { SWITCH_ENTRY } from '../../src/core/adopt/switch-plan.js';
import { requireBuild } from '../helpers/paths.js';
import {
  cachedBesideCode,
  duplicates,
  inShell,
  journeyServers,
  rememberThroughEntry,
  switchClient,
  toolTokens,
} from '../helpers/journey.js';
import { RealClient } from '../helpers/real-clients.js';
import { startsThroughServe, watchServerStarts } from '../helpers/server-starts.js';

beforeAll(requireBuild);

const META_TOOLS = ['call_tool', 'call_tool_read', 'describe_tool', 'find_tool', 'list_tools'];

describe('journey: Gemini CLI', () => {
  it('adopt → the printed switch → Gemini sends the meta-tools once, ≥ 60 % fewer tokens, cold as warm → memory in the user file through call_tool → way back byte for byte', async () => {
    const client = new RealClient('gemini');
    client.trustProject();
    const { memoryFile, files, before, directTools, directTokens, printed } = await switchClient(client);
    const scripts = Object.fromEntries((await journeyServers(client)).map((d) => [d.name, d.args![0]!]));

    // Cold: a fresh HOME where mcp-smart has cached nothing yet.
    expect(cachedBesideCode(client)).toEqual([]);
    const watch = watchServerStarts(client.home, scripts);
    const after = await client.toolLists();
    const warm = await client.toolLists();
    const starts = await watch.stop();
    const afterTools = { names: after.flatMap((s) => s.tools ?? []).sort() };
    // What the model receives decides: every tool Gemini sends comes from mcp-smart (`gemini mcp list`'s own quick
    // health check may still call a cold serve "Disconnected"; the declarations are what Gemini sends once ready).
    const connected = after.filter((s) => (s.tools ?? []).length > 0).map((s) => s.server);
    console.info(
      `journey gemini: gemini mcp list after the switch: ${after.map((s) => `${s.server} ${s.status}`).join(', ')}`,
    );
    // Gemini starts only mcp-smart now: the servers behind it are started by serve, each once per serve.
    expect(connected).toEqual([SWITCH_ENTRY]);
    expect(duplicates(afterTools.names)).toEqual([]);
    expect(afterTools.names).toEqual(META_TOOLS);
    // The second start (warm) sends the model what the first (cold) did.
    expect(warm.flatMap((s) => s.definitions ?? [])).toEqual(after.flatMap((s) => s.definitions ?? []));
    const { outside, twice } = startsThroughServe(starts);
    console.info(
      `journey gemini: server processes after the switch: ${starts.length} (${starts.map((s) => s.server).join(', ')}), ` +
        `started outside serve: ${outside.length}, twice by one serve: ${twice.length}`,
    );
    expect(outside).toEqual([]);
    expect(twice).toEqual([]);
    const afterTokens = await toolTokens(after);
    const fewer = Math.round((1 - afterTokens / directTokens) * 1000) / 10;
    console.info(
      `journey gemini: direct ${directTools.names.length} tools, ${directTokens} tokens; after adopt ` +
        `${afterTools.names.length} tools, ${afterTokens} tokens (servers Gemini starts: ${connected.join(', ')}; ` +
        `${fewer} % fewer)`,
    );
    // Issue 36: at least 60 % fewer than direct for Gemini in --mode auto/meta.
    expect(afterTokens).toBeLessThanOrEqual(Math.floor(directTokens * 0.4));

    // The memory server, started through the switched entry exactly as settings.json holds it: its create_entities
    // is behind the meta-tools, found with find_tool and called with call_tool, and writes the user's file.
    const settings = JSON.parse(readFileSync(files[0]!, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
    };
    const entity = `journey-gemini-${Date.now()}`;
    const used = await rememberThroughEntry(
      settings.mcpServers[SWITCH_ENTRY]!,
      { PATH: client.env.PATH, HOME: client.home },
      entity,
    );
    expect(used).toBe('memory.create_entities');
    expect(readFileSync(memoryFile, 'utf8')).toContain(entity);

    const back = await inShell(client, printed.undo);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    files.forEach((f, i) => expect(Buffer.compare(readFileSync(f), before[i]!), f).toBe(0));
    const restored = await client.toolLists();
    expect(restored.flatMap((s) => s.tools ?? []).sort()).toEqual(directTools.names);
  }, 600_000);
});

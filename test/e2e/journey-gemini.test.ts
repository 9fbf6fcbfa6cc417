// Issue 36's journey in the real Gemini CLI (offline, temporary HOME, trusted folder): the four demo servers added
// with `gemini mcp add --scope user` (filesystem's write_file hidden with --exclude-tools, memory with a literal
// MEMORY_FILE_PATH) → `mcp-smart adopt gemini` as a user runs it → the switch it printed, run in a shell as printed
// → the function declarations Gemini sends the model (a local stand-in for the Gemini API): no tool twice, the
// adopted servers not started by Gemini, tool tokens measured (serve --mode auto) → the memory server,
// started through the switched entry, writes the user's file → the printed way back → settings.json byte for byte.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../helpers/paths.js';
import { duplicates, inShell, rememberThroughEntry, switchClient, toolTokens } from '../helpers/journey.js';
import { RealClient } from '../helpers/real-clients.js';

beforeAll(requireBuild);

describe('journey: Gemini CLI', () => {
  it('adopt → the printed switch → Gemini sends each tool once, tokens measured → memory in the user file → way back byte for byte', async () => {
    const client = new RealClient('gemini');
    client.trustProject();
    const { memoryFile, files, before, directTools, directTokens, printed } = await switchClient(client);

    const after = await client.toolLists();
    const afterTools = { names: after.flatMap((s) => s.tools ?? []).sort() };
    // What the model receives decides: every tool Gemini sends comes from mcp-smart (`gemini mcp list`'s own quick
    // health check may still call a cold serve "Disconnected"; the declarations are what Gemini sends once ready).
    const connected = after.filter((s) => (s.tools ?? []).length > 0).map((s) => s.server);
    console.info(
      `journey gemini: gemini mcp list after the switch: ${after.map((s) => `${s.server} ${s.status}`).join(', ')}`,
    );
    // Gemini starts only mcp-smart now: the servers behind it are started once, by serve.
    expect(connected).toEqual(['mcp-smart']);
    expect(duplicates(afterTools.names)).toEqual([]);
    expect(afterTools.names).not.toContain('write_file');
    const afterTokens = await toolTokens(after);
    console.info(
      `journey gemini: direct ${directTools.names.length} tools, ${directTokens} tokens; after adopt ` +
        `${afterTools.names.length} tools, ${afterTokens} tokens (servers Gemini starts: ${connected.join(', ')}; ` +
        `${Math.round((1 - afterTokens / directTokens) * 1000) / 10} % fewer)`,
    );
    // Measured, not yet met: issue 36 asks ≥ 60 % fewer in --mode auto, but the four demo servers (37 tools) fit
    // serve's default budget, so auto serves every tool first-class and Gemini receives about what it did directly.
    // What holds now: every tool once, through serve, within 2 % of direct (the server prefix in each description).
    expect(afterTokens).toBeLessThanOrEqual(Math.ceil(directTokens * 1.02));

    // The memory server, started through the switched entry exactly as settings.json holds it, writes the user's file.
    const settings = JSON.parse(readFileSync(files[0]!, 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>;
    };
    const entity = `journey-gemini-${Date.now()}`;
    await rememberThroughEntry(settings.mcpServers['mcp-smart']!, { PATH: client.env.PATH, HOME: client.home }, entity);
    expect(readFileSync(memoryFile, 'utf8')).toContain(entity);

    const back = await inShell(client, printed.undo);
    expect(back.code, back.stdout + back.stderr).toBe(0);
    files.forEach((f, i) => expect(Buffer.compare(readFileSync(f), before[i]!), f).toBe(0));
    const restored = await client.toolLists();
    expect(restored.flatMap((s) => s.tools ?? []).sort()).toEqual(directTools.names);
  }, 600_000);
});

/** `mcp-smart adopt`: its declaration (spec.ts). */
import { storeOption, type CommandSpec } from './spec.js';

/** What the switch is, for --help: the entry's name and the mode each client is given. */
const SWITCH_NOTE =
  'The switch adds an entry named "smart" (one token in each tool name the client\n' +
  'sends the model; "mcp-smart" if a server you keep has that name) and starts\n' +
  'serve in the mode that suits the client: --mode tools where the client has its\n' +
  'own tool search (Claude Code, Codex, VS Code), --mode meta where it sends\n' +
  'every tool on each request (Gemini CLI, Cursor, Windsurf, Claude Desktop,\n' +
  'Cline, Roo): the five meta-tools, every tool reachable through find_tool and\n' +
  'call_tool.\n';

export const adoptSpec: CommandSpec = {
  name: 'adopt',
  description:
    'write mcp-smart.config.json from the servers a client loads (tool filters and plain values kept, secrets as ${VAR}); print the switch that runs mcp-smart instead of them, and the way back',
  args: [
    {
      name: '<client>',
      description: 'claude-code, claude-desktop, cursor, vscode, windsurf, gemini, codex, cline or roo',
    },
  ],
  options: [
    {
      flags: '--force',
      description:
        'replace the servers of an existing, different mcp-smart.config.json (a regular file, never a link; the old one is copied to a .bak beside it)',
    },
    { flags: '--dry-run', description: 'print what would be written; write nothing' },
    {
      flags: '--apply',
      description:
        "make the switch in the client's own files: turn the adopted servers off there (Claude Code disabledMcpServers, Gemini mcp.excluded, Codex enabled = false, …) and add mcp-smart; a copy of each file is kept",
    },
    {
      flags: '--undo',
      description:
        'take back the switch --apply made: each file as it was, byte for byte (changes made since are kept)',
    },
    {
      flags: '--scope-from-use',
      description:
        "write this project's scope derived from use (the tools serve saw it call; mcp-smart store scope) as the client's own tool filter on the entry the switch adds: Gemini CLI includeTools, Codex enabled_tools (other clients have none: refused); serve then runs in --mode tools",
    },
    storeOption("the usage store --scope-from-use reads (default: the config's store, else the usage file)"),
  ],
  help:
    '\n' +
    SWITCH_NOTE +
    '\nExamples:\n  mcp-smart adopt claude-code\n  mcp-smart adopt claude-code --apply\n  mcp-smart adopt claude-code --undo\n  mcp-smart adopt codex --dry-run --json\n  mcp-smart adopt gemini --scope-from-use --apply',
  load: async () => (await import('./adopt.js')).runAdoptCommand,
};

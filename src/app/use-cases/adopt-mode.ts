/**
 * The serve mode `adopt` writes into a client's switch. adopt puts every server the client loaded behind serve, so
 * what the model receives is decided here:
 * - a client with its own deferred tool search (Claude Code, Codex, VS Code) gets `tools`: each tool first-class
 *   under its own name, and the client's search keeps them out of the model's context until needed;
 * - a client that sends every declaration to the model on every request and has no search of its own (Gemini CLI,
 *   Cursor, Windsurf, Claude Desktop, Cline, Roo) gets `meta`: the meta-tools only (find_tool, describe_tool,
 *   list_tools, call_tool, call_tool_read), every tool reachable through them, and a tool a server pins in
 *   mcp-smart.config.json (`serve.servers.<name>.pin`) or that `serve.activate` activated first-class beside them.
 *   On the four demo servers Gemini CLI then sends 5 declarations instead of 37 (see bench/RESULTS.md).
 * `serve --print-config` keeps `auto` for the latter: there the servers stay where the user keeps them.
 */
import type { ServeMode } from '../../core/types.js';
import { clientMode, type ClientName } from '../services/print-config.js';

const META_WHY =
  'it sends every tool to the model on each request and has no tool search of its own, so it gets the meta-tools and finds the rest with find_tool (call_tool runs any of them)';

/** The mode adopt's switch starts serve in for `client`, and why (printed beside it). */
export function adoptMode(client: ClientName): { mode: ServeMode; why?: string } {
  const mode = clientMode(client);
  return mode === 'auto' ? { mode: 'meta', why: META_WHY } : { mode };
}

/** What `serve` says when a person starts it on a terminal: it is a server for MCP clients, and how they start it. */
import { shellQuote } from '../core/ci-workflow.js';

/** The note for stderr; `setup` are the global options the client's entry needs too (`--demo`, `-c <file>`, …). */
export function terminalNote(setup: readonly string[]): string {
  const printConfig = `${['mcp-smart', ...setup, 'serve', '--print-config'].map(shellQuote).join(' ')} <client>`;
  return (
    'mcp-smart serve: an MCP server on stdin/stdout for MCP clients (Claude Code, Cursor, Gemini CLI, …), not an ' +
    'interactive command.\n' +
    `mcp-smart serve: a client starts it from its config; \`${printConfig}\` prints that entry. ` +
    'Serving on stdin now; Ctrl-C stops.\n'
  );
}

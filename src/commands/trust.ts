/** `mcp-smart trust`: approves this project's own servers (project config files) so mcp-smart may start them. */
import type { CommandContext, CommandOutcome } from '../app/services/context.js';
import { trustProject, type TrustResult } from '../app/use-cases/trust.js';
import { shellQuote } from '../core/ci-workflow.js';
import { renderJson } from '../reporters/json.js';

export async function runTrustCommand(ctx: CommandContext): Promise<CommandOutcome<TrustResult>> {
  const { io, global } = ctx;
  const result = await trustProject(ctx);
  if (global.format === 'json') {
    io.stdout(renderJson('trust', result));
    return { result, exitCode: 0 };
  }
  if (result.store !== undefined) io.stdout(`Approved the usage store ${result.store} for ${result.project}.\n`);
  for (const f of result.configFiles ?? []) io.stdout(`Approved ${f} as it is now; a change to it asks again.\n`);
  if (result.approved.length === 0) {
    if (result.store !== undefined || result.configFiles !== undefined) return { result, exitCode: 0 };
    io.stdout(
      `Nothing to approve: no server in ${result.project}'s config files is waiting for approval.\n` +
        "mcp-smart trust approves what mcp-smart itself starts from this project's config files; it cannot approve a server in a client (Claude Code, Codex, Gemini CLI): do that in the client.\n",
    );
    return { result, exitCode: 0 };
  }
  const lines = result.approved.map((a) => `  ${a.name}  ${a.runs}  (${a.source})`);
  let text =
    `Approved ${result.approved.length} server${result.approved.length === 1 ? '' : 's'} of ${result.project}; mcp-smart may start:\n` +
    `${lines.join('\n')}\nRecorded in ${result.trustList}. A change to these definitions asks again.\n`;
  if (result.clientHeld.length > 0) {
    const files = [...new Set(result.clientHeld.map((h) => h.config))];
    const config = files
      .flatMap((f) => ['--config', f])
      .map(shellQuote)
      .join(' ');
    text +=
      `\nStill not loaded by their client: ${result.clientHeld.map((h) => `${h.name} (${h.client})`).join(', ')}.\n` +
      'mcp-smart cannot approve a server in a client, and counts what the client loads; approve them in the client ' +
      `(Claude Code: accept the folder's trust dialog and the .mcp.json servers), or name the file to read it as it is:\n` +
      `  mcp-smart ${config} audit\n` +
      `In CI (no client approved anything) name it the same way; \`mcp-smart init --github\` writes it into the workflow.\n`;
  }
  io.stdout(text);
  return { result, exitCode: 0 };
}

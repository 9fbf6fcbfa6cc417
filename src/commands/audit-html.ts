/** `audit --html <file>`: renders the audit as one HTML page and writes it atomically. */
import { resolve } from 'node:path';
import { checkWriteTarget, writeFileSafe, type OwnedKind } from '../process/safe-write.js';
import type { AuditResult } from '../core/audit/index.js';
import { renderAuditHtml } from '../reporters/html.js';
import type { ServerSnapshot } from '../core/types.js';
import type { CommandContext } from '../app/services/context.js';

/** The report's title starts so (reporters/html.ts): an existing file is replaced only when it is one. */
const AUDIT_HTML: OwnedKind = { mark: /<title>mcp-smart audit/, what: 'an mcp-smart audit report' };

/** Writes the report; the treemap groups servers by the config file (or snapshot) they came from. */
export async function writeAuditHtml(
  ctx: CommandContext,
  file: string,
  result: AuditResult,
  servers: readonly ServerSnapshot[],
): Promise<void> {
  const sources = new Map(servers.map((s) => [s.name, s.source ?? 'snapshot']));
  const html = renderAuditHtml(result, {
    sourceOf: (name) => sources.get(name) ?? 'snapshot',
    generatedAt: new Date().toISOString(),
  });
  await writeFileSafe(resolve(ctx.io.cwd, file), html, { kind: AUDIT_HTML });
  ctx.io.stderr(`HTML report written to ${file}\n`);
}

/** The refusal the write would give (a folder, a file we may not replace), said before connecting to anything. */
export function checkAuditHtmlTarget(ctx: CommandContext, file: string): Promise<void> {
  return checkWriteTarget(resolve(ctx.io.cwd, file), AUDIT_HTML);
}

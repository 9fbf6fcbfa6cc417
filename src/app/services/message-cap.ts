/**
 * The size cap on a server's messages (stdio lines and HTTP answers alike), from MCP_SMART_MAX_MESSAGE_MB when
 * it is set to a positive number of megabytes; otherwise the default (256 MB, core/connect/stdio.ts).
 */
export function messageCap(env: Readonly<Record<string, string | undefined>>): { maxMessageBytes?: number } {
  const mb = Number(env.MCP_SMART_MAX_MESSAGE_MB);
  return Number.isFinite(mb) && mb > 0 ? { maxMessageBytes: Math.ceil(mb * 1024 * 1024) } : {};
}

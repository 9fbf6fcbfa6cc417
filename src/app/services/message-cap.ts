import { envPositiveNumber } from '../../process/env-values.js';

/**
 * The size cap on a server's messages (stdio lines and HTTP answers alike), from MCP_SMART_MAX_MESSAGE_MB when
 * it is set (a positive number of megabytes; anything else is exit 2); otherwise the default (256 MB,
 * core/connect/stdio.ts).
 */
export function messageCap(env: Readonly<Record<string, string | undefined>>): { maxMessageBytes?: number } {
  const mb = envPositiveNumber(
    env,
    'MCP_SMART_MAX_MESSAGE_MB',
    'a number of megabytes in plain decimal, such as 512 or 0.5',
  );
  return mb !== undefined ? { maxMessageBytes: Math.ceil(mb * 1024 * 1024) } : {};
}

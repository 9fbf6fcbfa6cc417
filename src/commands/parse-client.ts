/** `--client <name>`: one of the clients whose config mcp-smart reads. */
import { CLIENT_IDS, parseClientName } from '../core/config/clients.js';
import { SmartError } from '../process/errors.js';
import type { ClientId } from '../core/types.js';

export function parseClientFlag(value: string, flag = '--client'): ClientId {
  const { client, suggestion } = parseClientName(value);
  if (client) return client;
  throw new SmartError('BAD_FLAG', {
    flag,
    value,
    hint: `${suggestion ? `Did you mean "${suggestion}"? ` : ''}Known clients: ${CLIENT_IDS.join(', ')}.`,
  });
}

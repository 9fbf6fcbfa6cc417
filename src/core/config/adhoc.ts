/** Servers given on the command line (--stdio, --url, --name). Pure. */
import { SmartError } from '../../process/errors.js';
import type { AdhocServer, ServerDefinition } from '../types.js';
import { splitCommandLine } from './shell-split.js';
import { STDIO_HINT, URL_HINT } from './adhoc-hints.js';

/** Definitions for the ad-hoc servers, named by --name or provisionally (stdio-1, url-1, …). */
export function adhocDefinitions(adhoc: readonly AdhocServer[]): ServerDefinition[] {
  const counters = { stdio: 0, url: 0 };
  return adhoc.map((a): ServerDefinition => {
    counters[a.kind]++;
    const name = a.name ?? `${a.kind}-${counters[a.kind]}`;
    const base = { name, enabled: true, scope: 'adhoc' as const, ...(a.name ? {} : { nameFromServer: true }) };
    if (a.kind === 'stdio') {
      const [command, ...args] = splitCommandLine(a.value, '--stdio');
      if (command === undefined || command === '') {
        throw new SmartError('BAD_FLAG', {
          flag: '--stdio',
          value: a.value,
          hint: STDIO_HINT,
        });
      }
      return { ...base, transport: 'stdio', command, args, source: '--stdio' };
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(a.value);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw new SmartError('BAD_FLAG', {
        flag: '--url',
        value: a.value,
        hint: URL_HINT,
      });
    }
    return { ...base, transport: 'http', url: a.value, autoTransport: true, source: '--url' };
  });
}

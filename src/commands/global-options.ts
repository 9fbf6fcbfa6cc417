/** The options every command takes (declared once, on the program) and their reading into GlobalOptions. */
import { SmartError } from '../process/errors.js';
import type { AdhocServer, GlobalOptions } from '../app/services/context.js';
import { parseChoiceFlag, parseIntFlag } from '../app/services/flags.js';
import { parseClientFlag } from './parse-client.js';
import { ENCODINGS, type OutputFormat } from '../core/types.js';
import type { OptionSpec } from './spec.js';
import { STDIO_HINT, URL_HINT } from '../core/config/adhoc-hints.js';

const FORMATS: readonly OutputFormat[] = ['table', 'json', 'markdown', 'github'];

/** In --help order, after -V, --version. */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  {
    flags: '-c, --config <file>',
    description: 'read servers from this config file (any supported client format; repeatable)',
    repeatable: true,
  },
  {
    flags: '--snapshot <file>',
    description: 'analyse a saved snapshot instead of connecting (repeatable)',
    repeatable: true,
  },
  // --stdio/--url/--name are read from argv (scanAdhocServers): declared here for --help and the parser.
  {
    flags: '--stdio <command line>',
    description: 'an ad-hoc stdio server, split like a shell but never run by one (repeatable)',
    empty: STDIO_HINT,
  },
  {
    flags: '--url <url>',
    description: 'an ad-hoc Streamable HTTP / SSE server (repeatable)',
    empty: URL_HINT,
  },
  { flags: '--name <name>', description: 'name for the preceding --stdio/--url server (default: its serverInfo.name)' },
  { flags: '-s, --server <name>', description: 'only these servers (repeatable)', repeatable: true },
  {
    flags: '--client <name>',
    description: 'only the servers that one client would load (its project and user files, its precedence)',
  },
  { flags: '--json', description: 'one JSON document on stdout (same as --format json)' },
  { flags: '--format <format>', description: 'output format', choices: FORMATS },
  {
    flags: '--encoding <encoding>',
    description: 'tokenizer for every count',
    choices: ENCODINGS,
    default: 'o200k_base',
  },
  { flags: '--timeout <ms>', description: 'per-server connect + list limit in milliseconds', default: '30000' },
  {
    flags: '--cache',
    description: 'answer from the tool-list cache even where lists are taken anew (check, dump -o, CI=true)',
  },
  { flags: '--no-cache', description: 'ignore and do not write the tool-list cache' },
  { flags: '--demo', description: 'use the bundled demo servers (real MCP servers installed with mcp-smart)' },
  {
    flags: '--auth-open <command>',
    description:
      "program that opens an OAuth authorization URL, or none to print it (default: the platform's browser opener)",
    empty: 'Give a program, or none.',
  },
  {
    flags: '--trust-project',
    description:
      "start servers from this project's config files without a recorded approval (CI; env MCP_SMART_TRUST_PROJECT=1)",
  },
  { flags: '--no-color', description: 'plain output without colour' },
  { flags: '--debug', description: 'stack traces, server stderr and resolved config on errors' },
];

/** --stdio/--url/--name are order-sensitive (--name names the server before it), so read them from argv. */
export function scanAdhocServers(argv: readonly string[]): AdhocServer[] {
  const servers: AdhocServer[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    if (flag !== '--stdio' && flag !== '--url' && flag !== '--name') continue;
    const value = inline ?? argv[++i];
    if (value === undefined) continue;
    if (flag === '--name') {
      const last = servers[servers.length - 1];
      if (!last)
        throw new SmartError('BAD_FLAG', {
          flag: '--name',
          value,
          hint: 'Put --name after the --stdio or --url it names.',
        });
      // A second --name for one server, or one name for two, dropped a name or hid a server behind a note.
      if (last.name !== undefined)
        throw new SmartError('BAD_FLAG', {
          flag: '--name',
          value,
          hint: `The ${last.kind === 'stdio' ? '--stdio' : '--url'} before it is already named "${last.name}"; give each server one --name.`,
        });
      if (servers.some((s) => s.name === value))
        throw new SmartError('BAD_FLAG', {
          flag: '--name',
          value,
          hint: 'Another --stdio or --url already has this name; give each server its own.',
        });
      last.name = value;
    } else {
      servers.push({ kind: flag === '--stdio' ? 'stdio' : 'url', value });
    }
  }
  return servers;
}

/** The global options as commander parsed them (plus the ad-hoc servers from argv), checked and typed. */
export function globalsFrom(opts: Record<string, unknown>, argv: readonly string[]): GlobalOptions {
  const json = opts.json === true;
  // `--json --format table` printed JSON without a word: the two ask for different outputs.
  if (json && typeof opts.format === 'string' && opts.format !== 'json')
    throw new SmartError('BAD_FLAG', {
      flag: '--format',
      value: opts.format,
      hint: '--json is --format json; give one of them.',
    });
  const formatExplicit = json || typeof opts.format === 'string';
  const format = json ? 'json' : parseChoiceFlag('--format', opts.format ?? 'table', FORMATS);
  return {
    config: (opts.config as string[] | undefined) ?? [],
    snapshot: (opts.snapshot as string[] | undefined) ?? [],
    adhoc: scanAdhocServers(argv),
    server: (opts.server as string[] | undefined) ?? [],
    ...(typeof opts.client === 'string' ? { client: parseClientFlag(opts.client) } : {}),
    format,
    formatExplicit,
    encoding: parseChoiceFlag('--encoding', opts.encoding ?? 'o200k_base', ENCODINGS),
    // Node timers overflow past 2^31-1 ms and fire at once: refuse rather than fail every server.
    timeoutMs: parseIntFlag('--timeout', opts.timeout ?? '30000', { min: 1, max: 2_147_483_647, example: '30000' }),
    cache: opts.cache !== false,
    ...(opts.cache === true ? { cacheAsked: true } : {}),
    demo: opts.demo === true,
    color: opts.color !== false,
    debug: opts.debug === true,
    ...(typeof opts.authOpen === 'string' ? { authOpen: opts.authOpen } : {}),
    ...(opts.trustProject === true ? { trustProject: true } : {}),
  };
}

/** The `servers` use case: the configured servers (no connecting), their sources and what shadows what. */
import type { DefinitionResult, WrittenFields } from '../../core/config/index.js';
import { isReferenceTo, redactUrl } from '../../process/redact.js';
import { redactArguments } from '../../process/secret-args.js';
import { entryOf, type ServersResult } from '../../core/servers-list.js';
import type { ServerDefinition } from '../../core/types.js';
import type { NextStep } from '../../core/next-step.js';
import type { AppContext } from '../services/context.js';
import { nextStepFor } from '../services/next-step-state.js';
import { loadDefinitions, selectServers } from '../services/definitions.js';

export const REDACTED = '<redacted>';

/** Every configured server (or those --server selects) with its transport, source file and whether it is enabled. */
export async function listServers(
  ctx: AppContext,
): Promise<{ result: ServersResult; debug?: string; next?: NextStep }> {
  const { io, global } = ctx;
  const defs = await loadDefinitions(global, io, undefined, { ask: false });
  const selected = selectServers(defs.servers, global.server);
  const result: ServersResult = {
    servers: selected.map(entryOf),
    shadowings: defs.shadowings,
    searched: defs.searched,
    warnings: defs.warnings,
  };
  if (defs.configFile) result.configFile = defs.configFile;
  const next = nextStepFor(io, {
    command: 'servers',
    config: defs.config,
    servers: selected.filter((d) => d.enabled).length,
    clients: defs.clients,
    ...(global.client ? { only: global.client } : {}),
    names: global.server,
  });
  return { result, ...(next ? { next } : {}), ...(global.debug ? { debug: debugReport(defs, selected, io.env) } : {}) };
}

/**
 * Hides secrets for --debug: env/header values (a variable's name left as written, `$GITHUB_PAT`, stays: it says
 * what to set), secret flags' values in args, URL query values, and any expanded variable's value.
 */
export function redactDefinition(
  d: ServerDefinition,
  env: Record<string, string | undefined>,
  vars: readonly string[],
  written: WrittenFields = {},
): Record<string, unknown> {
  const values = vars
    .map((v) => ({ v, value: env[v] }))
    .filter((x): x is { v: string; value: string } => typeof x.value === 'string' && x.value.length >= 3)
    .sort((a, b) => b.value.length - a.value.length || a.v.localeCompare(b.v));
  const scrub = (s: string): string => values.reduce((acc, { v, value }) => acc.split(value).join(`\${${v}}`), s);
  const redactMap = (m: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, isReferenceTo(v, vars) ? v : REDACTED]));
  const out: Record<string, unknown> = {
    name: d.name,
    transport: d.transport,
    enabled: d.enabled,
    source: d.source,
    scope: d.scope,
  };
  // A field that references a variable is shown as written, so it names the variable the file used; others
  // are the expanded value with any variable's value put back as its name.
  if (d.command !== undefined) out.command = written.command ?? scrub(d.command);
  // A secret flag's value (`--password hunter2`, `--token=…`) is hidden as env values are; a variable's name stays.
  if (d.args) out.args = redactArguments(written.args ?? d.args.map(scrub), REDACTED);
  if (d.cwd !== undefined) out.cwd = written.cwd ?? scrub(d.cwd);
  if (d.url !== undefined) out.url = redactUrl(written.url ?? scrub(d.url));
  if (d.env) out.env = redactMap(d.env);
  if (d.headers) out.headers = redactMap(d.headers);
  if (d.oauth) out.oauth = { ...d.oauth, ...(d.oauth.clientSecret ? { clientSecret: REDACTED } : {}) };
  if (d.autoTransport) out.autoTransport = true;
  if (d.nameFromServer) out.nameFromServer = true;
  if (d.shadowed) out.shadowed = d.shadowed;
  if (d.client) out.client = d.client;
  if (d.layer) out.layer = d.layer;
  if (d.notLoaded) out.notLoaded = d.notLoaded;
  if (d.toolFilter) out.toolFilter = d.toolFilter;
  return out;
}

function debugReport(
  defs: DefinitionResult,
  servers: ServerDefinition[],
  env: Record<string, string | undefined>,
): string {
  const lines = ['Searched locations:'];
  for (const s of defs.searched)
    lines.push(
      s.brokenLink !== undefined
        ? `  broken link ${s.file} -> ${s.brokenLink} (missing)`
        : `  ${s.found ? 'found  ' : 'missing'} ${s.file}`,
    );
  lines.push(`Config file: ${defs.configFile ?? '(none)'}`);
  const resolved = {
    config: defs.config,
    servers: servers.map((d) => redactDefinition(d, env, defs.referencedVars?.[d.name] ?? [], defs.written?.[d.name])),
  };
  lines.push('Resolved config (env and header values redacted):', JSON.stringify(resolved, null, 2));
  return lines.join('\n') + '\n';
}

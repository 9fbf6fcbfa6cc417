/** Turns one normalised entry into a ServerDefinition, expanding variables as its client does. Pure. */
import { isAbsolute, resolve as resolvePath } from 'node:path';
import type { ClientId, ConfigLayer, ServerDefinition, SourceScope } from '../types.js';
import { clientLabel, variableSyntax } from './clients.js';
import { expandString, type ExpandContext } from './expand.js';
import type { RawServer } from './server-entry.js';

export interface ExpandedServer {
  def: ServerDefinition;
  /** Environment variables the definition referenced (lets --debug scrub their values). */
  used: string[];
  /** VS Code / Cursor envFile, expanded and made absolute, to be read by the loader. */
  envFile?: string;
  warnings: string[];
}

export interface ExpandOrigin {
  source: string;
  scope: SourceScope;
  client?: ClientId;
  layer?: ConfigLayer;
}

/** The host part of a URL template (`https://${input:host}/mcp` → `${input:host}`), or undefined. */
function authorityOf(url: string): string | undefined {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  if (!m) return undefined;
  const auth = (m[1] ?? '').replace(/^.*@/, '');
  return auth.replace(/:\d*$/, '');
}

/** Expands `raw` for its client; records what the client would do with unset or unknown variables. */
export function expandServer(raw: RawServer, origin: ExpandOrigin, ctx: ExpandContext): ExpandedServer {
  const syntax = variableSyntax(origin.client);
  const label = clientLabel(origin.client);
  const where = `server "${raw.name}" (${origin.source})`;
  const warnings = [...raw.warnings];
  const used = new Set<string>();
  const reported = new Set<string>();
  const ownEnv = new Set(Object.keys(raw.env ?? {}));
  let refused: string | undefined;
  const unset = new Set<string>();
  const once = (key: string, message: string): void => {
    if (reported.has(key)) return;
    reported.add(key);
    warnings.push(message);
  };
  const x = (text: string): string => {
    const r = expandString(text, ctx, syntax);
    for (const v of r.used) used.add(v);
    for (const v of r.missing) {
      unset.add(v);
      once(v, `${where}: \${${v}} is not set; using an empty string.`);
    }
    for (const v of r.keptLiteral) once(v, `${where}: $${v} is not set; ${label} keeps it as written.`);
    for (const v of r.unsupported)
      once(v, `${where}: \${${v}} can only be resolved by the client that owns this file; using an empty string.`);
    for (const v of r.passedThrough) {
      // mcp-remote and similar wrappers fill ${VAR} from the server's own env: that is the intended use.
      if (ownEnv.has(v)) continue;
      once(v, `${where}: ${label} passes "\${${v}}" to the server as written (it does not expand this form).`);
    }
    for (const v of r.refused) {
      const reason = `\${${v}} is not set and has no default: ${label} refuses this server's config.`;
      refused ??= reason;
      once(v, `${where}: ${reason}`);
    }
    return r.value;
  };
  const mapValues = (m: Record<string, string>): Record<string, string> =>
    Object.fromEntries(Object.entries(m).map(([k, v]) => [k, x(v)]));

  const def: ServerDefinition = {
    name: raw.name,
    transport: raw.transport,
    enabled: raw.enabled,
    source: origin.source,
    scope: origin.scope,
  };
  if (origin.client) def.client = origin.client;
  if (origin.layer) def.layer = origin.layer;
  const base = ctx.base ?? ctx.cwd;
  if (raw.command !== undefined) {
    const command = x(raw.command);
    // A relative path (not a bare name looked up on PATH) is read against the config's folder; with a `cwd`
    // of its own, the process resolves it from there, as the client's spawn does.
    def.command =
      raw.cwd === undefined && base !== ctx.cwd && !isAbsolute(command) && /[\\/]/.test(command)
        ? resolvePath(base, command)
        : command;
  }
  if (raw.transport === 'stdio') def.args = (raw.args ?? []).map(x);
  if (raw.env) def.env = mapValues(raw.env);
  for (const name of raw.envVars ?? []) {
    used.add(name);
    const value = ctx.env[name];
    if (value !== undefined) def.env = { ...def.env, [name]: value };
  }
  if (raw.cwd !== undefined) def.cwd = resolvePath(base, x(raw.cwd));
  if (raw.url !== undefined) {
    def.url = x(raw.url);
    const host = authorityOf(raw.url);
    if (host !== undefined && host !== '' && x(host) === '') {
      refused ??= `its URL has no host once variables are filled (${raw.url.replace(/\?.*$/, '')}); ${label} asks for it when it starts the server, mcp-smart cannot, so the server is left out.`;
      warnings.push(`${where}: ${refused}`);
    }
  }
  if (raw.headers) def.headers = mapValues(raw.headers);
  for (const [header, { prefix, variable }] of Object.entries(raw.headerVars ?? {})) {
    used.add(variable);
    const value = ctx.env[variable];
    if (value === undefined) {
      warnings.push(
        `${where}: ${variable} (named for the ${header} header) is not set; ${label} sends no ${header} header.`,
      );
      continue;
    }
    def.headers = { ...def.headers, [header]: `${prefix}${value}` };
  }
  if (raw.oauth)
    def.oauth = { ...raw.oauth, ...(raw.oauth.clientSecret ? { clientSecret: x(raw.oauth.clientSecret) } : {}) };
  if (raw.autoTransport) def.autoTransport = true;
  if (raw.toolFilter) def.toolFilter = raw.toolFilter;
  if (unset.size > 0) def.unsetVariables = [...unset].sort();
  const notLoaded = raw.notLoaded ?? refused;
  if (notLoaded !== undefined) {
    def.enabled = false;
    def.notLoaded = notLoaded;
  }
  // Expanded before `used` is read: a variable in the envFile's path is one the entry refers to too.
  const envFile = raw.envFile === undefined ? undefined : resolvePath(base, x(raw.envFile));
  const out: ExpandedServer = { def, used: [...used].sort(), warnings };
  if (envFile !== undefined) out.envFile = envFile;
  return out;
}

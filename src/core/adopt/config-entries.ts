/**
 * `adopt <client>`: the client's loaded servers as mcp-smart.config.json entries. A value stays a value: a plain
 * setting (`MEMORY_FILE_PATH: "/home/me/graph.json"`) is copied as written, so the server behaves as it did in the
 * client. Only a secret (named like one: `GITHUB_TOKEN`, `Authorization`; or shaped like one: a bearer token, a
 * URL with credentials) becomes a `${VAR}` reference, and a reference the client's file already had stays one;
 * a secret's value is never written. Tool filters are kept under the keys serve reads (includeTools / excludeTools).
 * Pure.
 */
import { SMART_CONFIG_NAME } from '../config/locate.js';
import { isSecretName, looksLikeToken, redactText } from '../../process/redact.js';
import { secretArguments } from '../../process/secret-args.js';
import { referencedVariables } from '../config/referenced-vars.js';
import { normalizeServerEntry, type RawServer } from '../config/server-entry.js';
import type { ClientId, ServerDefinition } from '../types.js';

/** One server to adopt: its merged definition and its entry as the client's file has it. */
export interface AdoptInput {
  def: ServerDefinition;
  raw: RawServer;
}

/** A variable the user must set because the client's file held a literal value there (the value is never shown). */
export interface AdoptVariable {
  server: string;
  /** `env.GITHUB_TOKEN`, `headers.Authorization`, `oauth.clientSecret`. */
  key: string;
  variable: string;
}

export interface AdoptedFile {
  servers: Record<string, Record<string, unknown>>;
  variables: AdoptVariable[];
  /**
   * The literal values adopt replaced by a variable (never shown, never written): what the write of the file must
   * still scrub as a last line of defence. Every other string of `servers` was chosen to be written as it is.
   */
  secrets: string[];
}

const REF = /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}$/;
/** A `${VAR}` reference anywhere in a value (in our syntax): the value already comes from the environment. */
const HAS_REF = /\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/;
/** A reference in any client's syntax once in ours (`${input:tenant}`, `${command:x}`): a name, never a value. */
const ANY_REF = /\$\{[^{}]+\}/;

/**
 * Records a literal adopt replaced by a variable, for the write to scrub. A value that holds a reference
 * (`${input:tenant}`: the editor prompts for it) is no secret: scrubbing its text would rewrite the same reference
 * wherever else it stands (a URL path), and the file written would no longer be the file adopt shows or compares.
 */
function replaced(secrets: string[], value: string, written = value): void {
  if (!ANY_REF.test(written)) secrets.push(value);
}

/** True when a literal is a credential: its key is named like one, or the value looks like a token or credentials. */
export function isSecretValue(key: string, value: string): boolean {
  return isSecretName(key) || looksLikeToken(value) || redactText(value) !== value;
}

/** Gemini expands bare `$VAR` (gemini-cli packages/cli/src/utils/envVarResolver.ts); ours is `${VAR}`. */
function ourSyntax(text: string, client: ClientId | undefined): string {
  return client === 'gemini' ? text.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, '$${$1}') : text;
}

/**
 * The one rule for the variables adopt and init name (from a server's name and a key): upper snake case, and always
 * a name a shell and GitHub secrets take ([A-Z_][A-Z0-9_]*). Upper-cased alone, a server named `1srv` gave
 * `1SRV_PASSWORD`, which no shell can set and no reference can name; such a name (or an empty one) starts MCP_.
 */
export function variableName(text: string): string {
  const snake = text
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return /^[A-Z]/.test(snake) ? snake : snake === '' ? 'MCP' : `MCP_${snake}`;
}

/**
 * `base`, else `base_2`, `base_3`, …: the first name not held (by another owner, when `owner` is given).
 * Deterministic: entries go in name order.
 */
function unused(base: string, taken: Map<string, string>, owner?: string): string {
  let name = base;
  for (let n = 2; taken.has(name) && (owner === undefined || taken.get(name) !== owner); n++) name = `${base}_${n}`;
  return name;
}

/**
 * Each `key → value` as written to mcp-smart.config.json: references kept, plain values copied, and a secret literal
 * replaced by a named variable (listed in `variables`; its value is never written).
 */
function references(
  server: string,
  section: string,
  values: Record<string, string>,
  client: ClientId | undefined,
  name: (key: string) => string,
  taken: Map<string, string>,
  variables: AdoptVariable[],
  secrets: string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const written = ourSyntax(value, client);
    if (REF.test(written.trim())) {
      out[key] = written.trim();
      continue;
    }
    if (HAS_REF.test(written) || !isSecretValue(key, written)) {
      out[key] = written;
      continue;
    }
    // A variable of this name already stands for another server's literal: prefix this one with its server.
    let variable = name(key);
    if (taken.has(variable) && taken.get(variable) !== server)
      variable = unused(variableName(`${server}_${variable}`), taken, server);
    taken.set(variable, server);
    out[key] = `\${${variable}}`;
    variables.push({ server, key: section === key ? section : `${section}.${key}`, variable });
    replaced(secrets, value, written);
  }
  return out;
}

/**
 * The arguments as written to mcp-smart.config.json: a secret flag's value (`--api-key sk-…`, `--token=ghp_…`,
 * `--password hunter2`) becomes a variable named after the server and the flag, listed as `args[i]`; every other
 * argument is copied as written.
 */
function argumentReferences(
  server: string,
  args: readonly string[],
  taken: Map<string, string>,
  variables: AdoptVariable[],
  secrets: string[],
): string[] {
  const out = [...args];
  const variable = (flag: string): string => {
    // Not this server's name alone: an env key or header of the same server never shares this variable.
    const name = unused(variableName(`${server}_${flag}`), taken);
    taken.set(name, `${server} args`);
    return name;
  };
  for (const s of secretArguments(args, (v) => HAS_REF.test(v))) {
    const name = variable(s.flag);
    out[s.index] = s.inline ? `${s.dashes}${s.flag}=\${${name}}` : `\${${name}}`;
    variables.push({ server, key: `args[${s.index}]`, variable: name });
    replaced(secrets, s.value);
  }
  return out;
}

function hasCredentials(url: string): boolean {
  if (url.includes('$')) return false;
  try {
    const u = new URL(url);
    return u.username !== '' || u.password !== '' || u.search !== '';
  } catch {
    return false;
  }
}

/** The entries to write, in name order, and the variables the user must set. */
export function adoptEntries(inputs: readonly AdoptInput[]): AdoptedFile {
  const servers: AdoptedFile['servers'] = {};
  const variables: AdoptVariable[] = [];
  const secrets: string[] = [];
  const taken = new Map<string, string>();
  const sorted = [...inputs].sort((a, b) => (a.def.name < b.def.name ? -1 : a.def.name > b.def.name ? 1 : 0));
  for (const { def, raw } of sorted) {
    const client = def.client;
    const entry: Record<string, unknown> = {};
    if (def.transport === 'stdio') {
      entry.command = ourSyntax(raw.command ?? '', client);
      if (raw.args && raw.args.length > 0)
        entry.args = argumentReferences(
          def.name,
          raw.args.map((a) => ourSyntax(a, client)),
          taken,
          variables,
          secrets,
        );
      const env: Record<string, string> = { ...(raw.env ?? {}) };
      // Codex env_vars pass variables on from Codex's own environment: the same reference in ours.
      for (const v of raw.envVars ?? []) env[v] ??= `\${${v}}`;
      if (Object.keys(env).length > 0)
        entry.env = references(def.name, 'env', env, client, variableName, taken, variables, secrets);
      if (def.cwd !== undefined) entry.cwd = def.cwd;
    } else {
      entry.type = def.transport;
      if (raw.autoTransport) delete entry.type;
      const url = ourSyntax(raw.url ?? '', client);
      // Credentials in a URL (user:password@, a query such as ?api_key=…) are secrets like headers: a reference.
      entry.url = hasCredentials(url)
        ? references(def.name, 'url', { url }, client, () => variableName(`${def.name}_url`), taken, variables, secrets)
            .url
        : url;
      const headers: Record<string, string> = { ...(raw.headers ?? {}) };
      const named = (h: string): string => variableName(`${def.name}_${h === 'Authorization' ? 'token' : h}`);
      const written = Object.keys(headers).length > 0;
      const out = written ? references(def.name, 'headers', headers, client, named, taken, variables, secrets) : {};
      for (const [h, v] of Object.entries(raw.headerVars ?? {})) out[h] = `${v.prefix}\${${v.variable}}`;
      if (Object.keys(out).length > 0) entry.headers = out;
    }
    const f = def.toolFilter;
    if (f?.include !== undefined) entry.includeTools = [...f.include];
    if (f?.exclude !== undefined) entry.excludeTools = [...f.exclude];
    if (raw.oauth) {
      const { clientSecret, ...rest } = raw.oauth;
      const oauth: Record<string, unknown> = { ...rest };
      if (clientSecret !== undefined)
        oauth.clientSecret = references(
          def.name,
          'oauth',
          { clientSecret },
          client,
          () => variableName(`${def.name}_client_secret`),
          taken,
          variables,
          secrets,
        ).clientSecret;
      entry.oauth = oauth;
    }
    servers[def.name] = entry;
  }
  return { servers, variables, secrets };
}

/**
 * Every variable the written entries refer to, sorted, once each: the file read back as serve reads it (our own
 * syntax), through the one function print-config uses too.
 */
export function writtenVariables(servers: AdoptedFile['servers']): string[] {
  return referencedVariables(
    Object.entries(servers).map(([name, entry]) => ({
      raw: normalizeServerEntry(name, entry, ['mcpServers', name], SMART_CONFIG_NAME, undefined),
    })),
  );
}

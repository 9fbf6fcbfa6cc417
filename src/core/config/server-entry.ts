/** Validates one client-config server entry and normalises it (before `${VAR}` expansion). Pure. */
import { SmartError } from '../../errors.js';
import type { ServerDefinition, Transport } from '../../types.js';
import { describeType, formatKeyPath, isPlainObject, type KeyPart } from './key-path.js';
import type { ConfigFlavor } from './locate.js';

/** One entry as the file has it, before `${VAR}` expansion: a ServerDefinition without where it came from. */
export type RawServer = Omit<ServerDefinition, 'source' | 'scope' | 'shadowed' | 'nameFromServer' | 'autoTransport'> & {
  autoTransport: boolean;
};

const TYPE_MAP: Record<string, Transport> = {
  stdio: 'stdio',
  local: 'stdio',
  http: 'http',
  'streamable-http': 'http',
  streamablehttp: 'http',
  streamable_http: 'http',
  'streamable http': 'http',
  remote: 'http',
  sse: 'sse',
};

class EntryReader {
  constructor(
    private readonly file: string,
    private readonly at: readonly KeyPart[],
    private readonly raw: Record<string, unknown>,
  ) {}

  fail(key: readonly KeyPart[], reason: string): never {
    throw new SmartError('CONFIG_INVALID', { file: this.file, key: formatKeyPath([...this.at, ...key]), reason });
  }

  string(key: string): string | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string')
      this.fail([key], `expected a string, got ${describeType(v)}. Put the value in double quotes.`);
    return v;
  }

  boolean(key: string): boolean | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') this.fail([key], `expected true or false, got ${describeType(v)}.`);
    return v;
  }

  stringArray(key: string): string[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v))
      this.fail([key], `expected an array of strings, got ${describeType(v)}. Write it as ["--flag", "value"].`);
    return v.map((item: unknown, i) => {
      if (typeof item !== 'string')
        this.fail([key, i], `expected a string, got ${describeType(item)}. Put the value in double quotes.`);
      return item;
    });
  }

  stringMap(key: string): Record<string, string> | undefined {
    const v = this.raw[key];
    if (v === undefined || v === null) return undefined;
    if (!isPlainObject(v)) this.fail([key], `expected an object of string values, got ${describeType(v)}.`);
    const out: Record<string, string> = {};
    for (const [k, item] of Object.entries(v)) {
      if (typeof item !== 'string')
        this.fail([key, k], `expected a string, got ${describeType(item)}. Put the value in double quotes.`);
      out[k] = item;
    }
    return out;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Validates and normalises `raw` found at key path `at` of `file`. Throws CONFIG_INVALID naming the key path. */
export function normalizeServerEntry(
  name: string,
  raw: unknown,
  at: readonly KeyPart[],
  file: string,
  flavor: ConfigFlavor,
): RawServer {
  if (!isPlainObject(raw)) {
    throw new SmartError('CONFIG_INVALID', {
      file,
      key: formatKeyPath(at),
      reason: `expected an object with "command" (stdio) or "url" (HTTP/SSE), got ${describeType(raw)}.`,
    });
  }
  const r: EntryReader = new EntryReader(file, at, raw);
  const command = r.string('command');
  const args = r.stringArray('args');
  const env = r.stringMap('env');
  const cwd = r.string('cwd');
  const disabled = r.boolean('disabled');
  const enabled = r.boolean('enabled');
  const httpUrl = r.string('httpUrl');
  const serverUrl = r.string('serverUrl');
  const url = r.string('url');
  const headers: Record<string, string> = { ...r.stringMap('headers'), ...r.stringMap('http_headers') };
  // Codex names the environment variables that hold header values instead of the values themselves.
  for (const [header, variable] of Object.entries(r.stringMap('env_http_headers') ?? {}))
    headers[header] = `\${${variable}}`;
  const bearerVar = r.string('bearer_token_env_var');
  if (bearerVar !== undefined) headers.Authorization = `Bearer \${${bearerVar}}`;

  let typeKey: string | undefined;
  let typeValue: string | undefined;
  for (const key of ['type', 'transport', 'transportType']) {
    const v = r.string(key);
    if (v !== undefined) {
      typeKey = key;
      typeValue = v;
      break;
    }
  }
  let transport: Transport | undefined;
  if (typeKey !== undefined && typeValue !== undefined) {
    transport = TYPE_MAP[typeValue.toLowerCase()];
    if (!transport)
      r.fail([typeKey], `unknown transport "${typeValue}". Use one of: stdio, http, streamable-http, sse.`);
  }

  const anyUrl = httpUrl ?? serverUrl ?? url;
  let autoTransport = false;
  if (transport === undefined) {
    if (command !== undefined) transport = 'stdio';
    else if (httpUrl !== undefined) transport = 'http';
    else if (serverUrl !== undefined || url !== undefined) {
      // Gemini CLI documents `url` as SSE and `httpUrl` as Streamable HTTP; Codex speaks Streamable HTTP only.
      if (flavor === 'gemini' && serverUrl === undefined) transport = 'sse';
      else if (flavor === 'codex') transport = 'http';
      else {
        transport = 'http';
        autoTransport = true;
      }
    } else {
      r.fail([], 'needs "command" (a stdio server) or "url" (an HTTP/SSE server).');
    }
  }
  if (transport === 'stdio' && command === undefined) {
    r.fail(['command'], 'a stdio server needs "command": the program to start.');
  }
  if (transport !== 'stdio' && anyUrl === undefined) {
    r.fail(['url'], `a ${transport} server needs "url".`);
  }
  // A literal URL is checked here (exit 2, like --url); one built from ${VAR} is checked when it is used.
  if (transport !== 'stdio' && anyUrl !== undefined && !anyUrl.includes('${') && !isHttpUrl(anyUrl)) {
    const key = httpUrl !== undefined ? 'httpUrl' : serverUrl !== undefined ? 'serverUrl' : 'url';
    r.fail([key], 'is not an http:// or https:// URL. Write it like "http://127.0.0.1:3000/mcp".');
  }

  const out: RawServer = {
    name,
    transport,
    autoTransport,
    enabled: disabled !== true && enabled !== false,
  };
  if (transport === 'stdio') {
    out.command = command;
    if (args) out.args = args;
    if (env) out.env = env;
    if (cwd !== undefined) out.cwd = cwd;
  } else {
    out.url = anyUrl;
    if (Object.keys(headers).length > 0) out.headers = headers;
  }
  return out;
}

/** Variable expansion as each client does it: `${VAR}`, `${VAR:-default}`, `${env:VAR}`, `$VAR`, editor variables. Pure. */
import { GENERIC_VARS, type VariableSyntax } from './clients.js';

export interface ExpandContext {
  env: Record<string, string | undefined>;
  /** Workspace folder for `${workspaceFolder}`. */
  cwd: string;
  /**
   * The folder relative paths of an entry (`cwd`, `envFile`, a `./command`) are read against: the config
   * file's own folder for a file given with --config, else the workspace folder.
   */
  base?: string;
  home: string;
  platform: NodeJS.Platform;
}

export interface Expansion {
  value: string;
  /** Environment variables referenced (set or not). */
  used: string[];
  /** Variables that were unset and had no default: replaced by "". */
  missing: string[];
  /** Unset variables the client keeps as written (Gemini). */
  keptLiteral: string[];
  /** Unset variables for which the client refuses the server (Claude Code). */
  refused: string[];
  /** References mcp-smart cannot resolve (`${input:x}`, `${command:x}`): replaced by "". */
  unsupported: string[];
  /** `${…}` forms this client does not expand at all: passed to the server as written. */
  passedThrough: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function lookup(env: Record<string, string | undefined>, name: string, platform: NodeJS.Platform): string | undefined {
  const direct = env[name];
  if (direct !== undefined || platform !== 'win32') return direct;
  // Windows environment names are case-insensitive.
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(env)) if (k.toUpperCase() === upper) return v;
  return undefined;
}

function basename(p: string): string {
  const parts = p.split(/[\\/]+/).filter((x) => x !== '');
  return parts[parts.length - 1] ?? '';
}

function editorVariable(inner: string, ctx: ExpandContext): string | undefined {
  switch (inner) {
    case 'workspaceFolder':
    case 'workspaceRoot':
      return ctx.cwd;
    case 'workspaceFolderBasename':
      return basename(ctx.cwd);
    case 'userHome':
      return ctx.home;
    case 'pathSeparator':
    case '/':
      return ctx.platform === 'win32' ? '\\' : '/';
  }
  return undefined;
}

/** Expands every reference in one string the way `syntax` says; forms it does not know are left as written. */
export function expandString(text: string, ctx: ExpandContext, syntax: VariableSyntax = GENERIC_VARS): Expansion {
  const r: Expansion = {
    value: '',
    used: [],
    missing: [],
    keptLiteral: [],
    refused: [],
    unsupported: [],
    passedThrough: [],
  };
  const resolveName = (whole: string, name: string, fallback: string | undefined): string => {
    r.used.push(name);
    const v = lookup(ctx.env, name, ctx.platform);
    if (fallback !== undefined) return v === undefined || v === '' ? fallback : v;
    if (v !== undefined) return v;
    if (syntax.unset === 'literal') {
      r.keptLiteral.push(name);
      return whole;
    }
    if (syntax.unset === 'refuse') {
      r.refused.push(name);
      return whole;
    }
    r.missing.push(name);
    return '';
  };
  r.value = text.replace(
    /\$\{([^}]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole: string, inner?: string, bare?: string) => {
      if (bare !== undefined) return syntax.dollar ? resolveName(whole, bare, undefined) : whole;
      const body = inner ?? '';
      if (syntax.editorVars) {
        const v = editorVariable(body, ctx);
        if (v !== undefined) return v;
      }
      if (/^(input|command|config):/.test(body)) {
        if (!syntax.inputs) {
          r.passedThrough.push(body);
          return whole;
        }
        r.unsupported.push(body);
        return '';
      }
      if (body.startsWith('env:')) {
        if (!syntax.envPrefix) {
          if (!syntax.braces) r.passedThrough.push(body);
          // Claude Code reads `env:X` as a variable named "env:X", which is never set.
          else if (syntax.unset === 'refuse') return resolveName(whole, body, undefined);
          return whole;
        }
        const [name = '', fallback] = splitDefault(body.slice(4), syntax.defaults);
        return NAME.test(name) ? resolveName(whole, name, fallback) : whole;
      }
      const [name = '', fallback] = splitDefault(body, syntax.defaults);
      // `${}`, `${:-x}`, `${A${B}}` and a nested default `${A:-${B}}` (matched up to its first `}`): no client form;
      // left as written, and said (a nested default came out as the value and a stray `}`).
      if (!NAME.test(name) || fallback?.includes('${')) {
        r.passedThrough.push(fallback?.includes('${') ? `${body}}` : body);
        return whole;
      }
      if (!syntax.braces) {
        r.passedThrough.push(name);
        return whole;
      }
      return resolveName(whole, name, fallback);
    },
  );
  return r;
}

function splitDefault(body: string, defaults: boolean): [string, string | undefined] {
  const dash = defaults ? body.indexOf(':-') : -1;
  return dash >= 0 ? [body.slice(0, dash), body.slice(dash + 2)] : [body, undefined];
}

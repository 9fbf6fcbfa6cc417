/** `${VAR}`, `${env:VAR}`, `${VAR:-default}` and VS Code's `${workspaceFolder}` expansion (pure). */

export interface ExpandContext {
  env: Record<string, string | undefined>;
  /** Workspace folder for `${workspaceFolder}`. */
  cwd: string;
  home: string;
  platform: NodeJS.Platform;
}

export interface Expansion {
  value: string;
  /** Environment variables referenced (set or not). */
  used: string[];
  /** Variables that were unset and had no default: replaced by "". */
  missing: string[];
  /** References mcp-smart cannot resolve (`${input:x}`, `${command:x}`): replaced by "". */
  unsupported: string[];
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

/** Expands every `${…}` reference in one string. Unknown forms are left as written. */
export function expandString(text: string, ctx: ExpandContext): Expansion {
  const used: string[] = [];
  const missing: string[] = [];
  const unsupported: string[] = [];
  const value = text.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
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
    if (/^(input|command|config):/.test(inner)) {
      unsupported.push(inner);
      return '';
    }
    let body = inner.startsWith('env:') ? inner.slice(4) : inner;
    let fallback: string | undefined;
    const dash = body.indexOf(':-');
    if (dash >= 0) {
      fallback = body.slice(dash + 2);
      body = body.slice(0, dash);
    }
    if (!NAME.test(body)) return whole;
    used.push(body);
    const v = lookup(ctx.env, body, ctx.platform);
    if (fallback !== undefined) return v === undefined || v === '' ? fallback : v;
    if (v === undefined) {
      missing.push(body);
      return '';
    }
    return v;
  });
  return { value, used, missing, unsupported };
}

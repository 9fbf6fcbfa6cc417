/**
 * The secret values of server definitions (env, headers, URL credentials, secret flags' values in args, expanded
 * variables): what every exit hides.
 */
import {
  isPlainWord,
  isReferenceTo,
  isSecretName,
  isUnexpanded,
  looksLikeToken,
  type SecretValues,
} from '../process/redact.js';
import { secretArguments } from '../process/secret-args.js';
import { own } from './dict.js';
import type { ServerDefinition } from './types.js';

const MIN_SECRET = 4;

function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const u = new URL(url);
    return [u.username, u.password, ...u.searchParams.values()]
      .flatMap((v) => [v, safeDecode(v)])
      .filter((v) => v !== '');
  } catch {
    return [];
  }
}

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** `Bearer abc` → also `abc`: servers echo the token without its scheme. A part that is a variable's name is left. */
const headerParts = (v: string): string[] => {
  const m = /^\s*[A-Za-z-]+\s+(\S+)\s*$/.exec(v);
  return (m ? [v, m[1]!] : [v]).filter((p) => !isUnexpanded(p));
};

const byLength = (values: Iterable<string>): string[] =>
  [...new Set([...values].filter((v) => v.length >= MIN_SECRET))].sort(
    (a, b) => b.length - a.length || (a < b ? -1 : 1),
  );

/** The secret values of server definitions; `vars` are the environment variables their config expanded. */
export function secretValuesOf(
  defs: readonly ServerDefinition[],
  env: Readonly<Record<string, string | undefined>> = {},
  vars: Readonly<Record<string, readonly string[]>> = {},
): SecretValues {
  const all: string[] = [];
  const strong: string[] = [];
  for (const d of defs) {
    for (const [k, v] of Object.entries(d.env ?? {})) {
      // `$GITHUB_PAT` left as written (unset): the name the user must set, shown so they can set it.
      if (isReferenceTo(v, own(vars, d.name) ?? [])) continue;
      all.push(v);
      if (isSecretName(k) || looksLikeToken(v)) strong.push(v);
    }
    // Headers carry credentials by their nature (Authorization, X-Api-Key, cookies): every value is one.
    for (const v of Object.values(d.headers ?? {})) {
      all.push(...headerParts(v));
      strong.push(...headerParts(v));
    }
    // A secret flag's value (`--password hunter2`): a server that echoes its command line does not show it.
    const fromArgs = secretArguments(d.args ?? []).map((a) => a.value);
    all.push(...fromArgs);
    strong.push(...fromArgs);
    const fromUrl = urlSecrets(d.url);
    all.push(...fromUrl);
    strong.push(...fromUrl);
    for (const name of own(vars, d.name) ?? []) {
      const v = env[name];
      if (typeof v !== 'string') continue;
      all.push(v);
      if (isSecretName(name) || looksLikeToken(v)) strong.push(v);
    }
  }
  return { all: byLength(all), strong: byLength(strong.filter((v) => !isPlainWord(v))) };
}

/** Validation of `serve.auth` (identity for `serve --transport http`, src/serve/auth/). Pure. */
import type { IdentityToolFilter, ServeAuthConfig } from '../types.js';
import { describeType, isPlainObject, type KeyPart } from './key-path.js';

type Check = (v: unknown) => string | undefined;

/** What validate.ts's Validator lends this section. */
export interface SectionValidator {
  add(at: readonly KeyPart[], reason: string): void;
  section(value: unknown, at: KeyPart[], spec: Record<string, Check>): Record<string, unknown> | undefined;
}

const httpUrl =
  (what: string): Check =>
  (v) => {
    if (typeof v !== 'string') return `expected ${what} as an http(s) URL string, got ${describeType(v)}.`;
    try {
      const u = new URL(v);
      if (u.protocol === 'https:' || u.protocol === 'http:') return undefined;
    } catch {
      // reported below
    }
    return `expected ${what} as an http(s) URL, e.g. "https://id.example.com".`;
  };
const words: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(x))
    ? undefined
    : `expected an array of scope names (strings without spaces or quotes), got ${describeType(v)}.`;
const patterns: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '')
    ? undefined
    : `expected an array of tool ids or patterns ("server.tool", "server.*"), got ${describeType(v)}.`;
const claimName: Check = (v) =>
  typeof v === 'string' && v !== '' ? undefined : `expected the name of a token claim, got ${describeType(v)}.`;

/** `serve.auth`: issuer (required), audience, scopes, jwksUri, groupsClaim, users and groups tool filters. */
export function validateServeAuth(value: unknown, at: KeyPart[], v: SectionValidator): ServeAuthConfig | undefined {
  const out = v.section(value, at, {
    issuer: httpUrl('the token issuer'),
    audience: httpUrl("this gateway's public URL"),
    scopes: words,
    jwksUri: httpUrl("the issuer's JWKS"),
    groupsClaim: claimName,
    users: () => undefined,
    groups: () => undefined,
  });
  if (!out) return undefined;
  const result = { ...out } as ServeAuthConfig;
  for (const kind of ['users', 'groups'] as const) {
    delete result[kind];
    const given = out[kind];
    if (given === undefined) continue;
    if (!isPlainObject(given)) {
      v.add(
        [...at, kind],
        `expected an object keyed by ${kind === 'users' ? 'token subject' : 'group name'}, got ${describeType(given)}.`,
      );
      continue;
    }
    const filters: Record<string, IdentityToolFilter> = {};
    for (const [name, entry] of Object.entries(given)) {
      const f = v.section(entry, [...at, kind, name], { includeTools: patterns, excludeTools: patterns });
      if (f) filters[name] = f;
    }
    result[kind] = filters;
  }
  return result;
}

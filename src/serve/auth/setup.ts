/**
 * Identity for `serve --transport http`, from the flags (--issuer, --audience, --scope) over the config's
 * `serve.auth` block: the issuer whose tokens are accepted, the audience (default: this gateway's own URL), the
 * required scopes. Errors name the flag or key to fix. Nothing is fetched here: the issuer's JWKS is fetched when the
 * first token arrives (verify.ts).
 */
import { SmartError } from '../../process/errors.js';
import type { ServeAuthConfig } from '../../core/types.js';
import { optionalString, parseListFlag } from '../../app/services/flags.js';
import { userLabel, type UserLabelKind } from '../../core/session/users.js';
import { authGate, type AuthGate } from './gate.js';
import type { issuerVerifier } from './verify.js';

export interface ServeIdentity {
  issuer: string;
  /**
   * Makes the gate once the bound URL is known (the default audience), with verify.ts's `issuerVerifier` (given by
   * the caller, which loads it with --transport http only: its token checks, `jose`, are no part of a stdio start).
   */
  gate: (url: string, verifierOf: typeof issuerVerifier) => AuthGate;
  /** The label a subject's learned calls are stored under. */
  subjectLabel: (subject: string) => string;
}

function httpUrl(flag: string, value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return value;
  } catch {
    // refused below
  }
  throw new SmartError('BAD_FLAG', { flag, value, hint: 'Expected an http(s) URL, e.g. https://id.example.com.' });
}

/** The identity settings, or undefined when no issuer is configured (then --token-env or loopback as before). */
export function serveIdentity(
  opts: Record<string, unknown>,
  config: ServeAuthConfig | undefined,
  ctx: { configFile?: string; tokenEnv?: string; userLabel?: UserLabelKind; log: (text: string) => void },
): ServeIdentity | undefined {
  const issuerFlag = optionalString(opts.issuer);
  const audienceFlag = optionalString(opts.audience);
  const scopeFlag = optionalString(opts.scope);
  const issuer = issuerFlag ? httpUrl('--issuer', issuerFlag) : config?.issuer;
  if (!issuer) {
    if (audienceFlag || scopeFlag)
      throw new SmartError('BAD_FLAG', {
        flag: audienceFlag ? '--audience' : '--scope',
        value: audienceFlag ?? scopeFlag,
        hint: 'It needs --issuer <url> (or serve.auth.issuer in the config): the issuer whose tokens are accepted.',
      });
    if (config)
      throw new SmartError('CONFIG_INVALID', {
        file: ctx.configFile ?? 'mcp-smart.config.json',
        key: 'serve.auth.issuer',
        reason: 'missing: serve.auth needs the issuer whose access tokens are accepted (or pass --issuer <url>).',
      });
    return undefined;
  }
  if (ctx.tokenEnv)
    throw new SmartError('BAD_FLAG', {
      flag: '--token-env',
      value: ctx.tokenEnv,
      hint: 'A fixed token and an issuer exclude each other: use --token-env for a single user, or --issuer (serve.auth) for a team.',
    });
  const audience = audienceFlag ? httpUrl('--audience', audienceFlag) : config?.audience;
  // Only separators named no scope, and every token would have passed the check the user asked for.
  const scopes = scopeFlag
    ? parseListFlag(
        '--scope',
        scopeFlag,
        /[\s,]+/,
        'Give the scopes every token must carry, separated by commas, or leave --scope out.',
      )
    : (config?.scopes ?? []);
  const kind = ctx.userLabel ?? 'hashed';
  return {
    issuer,
    subjectLabel: (subject) => userLabel(subject, kind),
    gate: (url, verifierOf) => {
      const resource = audience ?? url;
      const verifier = verifierOf({
        issuer,
        audience: resource,
        groupsClaim: config?.groupsClaim ?? 'groups',
        log: ctx.log,
        ...(config?.jwksUri ? { jwksUri: config.jwksUri } : {}),
      });
      return authGate({ issuer, resource, scopes, verifier, log: ctx.log });
    },
  };
}

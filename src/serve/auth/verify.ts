/**
 * Bearer access tokens of the configured issuer, checked with `jose`: a JWT signed by a key of the issuer's JWKS
 * (found through its discovery document, or `jwksUri`), issued by it (`iss`), for this gateway (`aud`), not expired
 * (`exp` required). The token's subject and groups (a configurable claim) say who calls. Nothing is fetched before the
 * first token arrives; the JWKS is cached and fetched again for a key it does not know (jose's rules).
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import type { Caller } from './caller.js';

export interface IssuerOptions {
  issuer: string;
  /** The audience tokens must name (this gateway's public URL). */
  audience: string;
  jwksUri?: string;
  /** The claim holding the caller's groups (default "groups"). */
  groupsClaim: string;
  log: (text: string) => void;
  /** Seconds of clock difference allowed with the issuer (default 30). */
  clockToleranceS?: number;
}

const FETCH_TIMEOUT_MS = 10_000;

/** The issuer's metadata: OpenID discovery, else RFC 8414 authorization-server metadata. */
async function discoverJwks(issuer: string): Promise<string> {
  const base = new URL(issuer);
  const path = base.pathname.replace(/\/$/, '');
  const candidates = [
    `${base.origin}${path}/.well-known/openid-configuration`,
    `${base.origin}/.well-known/oauth-authorization-server${path}`,
  ];
  const problems: string[] = [];
  for (const url of candidates) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
      if (!res.ok) {
        problems.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
      // RFC 8414 §3.3 / OpenID Discovery §4.3: the document must name the issuer it was asked for.
      if (doc.issuer !== issuer) {
        problems.push(`${url} names issuer ${JSON.stringify(doc.issuer)}, not ${JSON.stringify(issuer)}`);
        continue;
      }
      if (typeof doc.jwks_uri !== 'string') {
        problems.push(`${url} has no jwks_uri`);
        continue;
      }
      return doc.jwks_uri;
    } catch (e) {
      problems.push(`${url}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  throw new Error(problems.join('; '));
}

const stringList = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

/** Scopes of a JWT access token: `scope` (RFC 9068, space-separated) or `scp` (a list). */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter((s) => s !== '');
  return stringList(payload.scp);
}

/** The OAuthTokenVerifier the SDK's verifyBearerToken runs (it then checks audience, scopes and expiry again). */
export function issuerVerifier(opts: IssuerOptions): OAuthTokenVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  const jwks = (): Promise<ReturnType<typeof createRemoteJWKSet>> =>
    (keys ??= (async () => {
      const uri = opts.jwksUri ?? (await discoverJwks(opts.issuer));
      return createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS });
    })().catch((e: unknown) => {
      keys = undefined;
      opts.log(`warning: cannot reach the token issuer ${opts.issuer} (${e instanceof Error ? e.message : String(e)})`);
      throw new OAuthError(OAuthErrorCode.ServerError, 'the token issuer cannot be reached; try again');
    }));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const keySet = await jwks();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keySet, {
          issuer: opts.issuer,
          audience: opts.audience,
          requiredClaims: ['exp', 'sub'],
          clockTolerance: opts.clockToleranceS ?? 30,
        }));
      } catch (e) {
        if (!(e instanceof errors.JOSEError) || e instanceof errors.JWKSTimeout || e instanceof errors.JWKSInvalid)
          throw new OAuthError(OAuthErrorCode.ServerError, 'the token issuer cannot be reached; try again');
        throw new OAuthError(OAuthErrorCode.InvalidToken, refusal(e));
      }
      const caller: Caller = { subject: payload.sub!, groups: stringList(payload[opts.groupsClaim]) };
      const clientId = payload.client_id ?? payload.azp;
      return {
        token,
        clientId: typeof clientId === 'string' ? clientId : payload.sub!,
        scopes: scopesOf(payload),
        expiresAt: payload.exp!,
        // jose checked that `aud` names this gateway.
        resource: new URL(opts.audience),
        extra: { caller },
      };
    },
  };
}

/** Why a token was refused, in words that name no token content but the failed check. */
function refusal(e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'the token has expired';
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return 'the token was not issued for this gateway (audience)';
    if (e.claim === 'iss') return 'the token was not issued by the configured issuer';
    return `the token's "${e.claim}" claim is missing or invalid`;
  }
  if (e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JWKSNoMatchingKey)
    return 'the token is not signed by a key of the configured issuer';
  return 'the token is not a valid JWT access token';
}

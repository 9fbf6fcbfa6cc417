/**
 * `serve --transport http` as an OAuth 2.1 protected resource (MCP authorization spec, RFC 9728): it publishes its
 * protected-resource metadata at `/.well-known/oauth-protected-resource` and the path-suffixed form
 * (`…/oauth-protected-resource/mcp`), and every MCP request needs a bearer access token of the configured issuer
 * for this gateway's audience, unexpired, with the required scopes. No token or a bad one: 401 with
 * `WWW-Authenticate: Bearer resource_metadata="…"`; a missing scope: 403 `insufficient_scope`. The verified token
 * rides on the request (`req.auth`), which the SDK hands to the handlers as `ctx.http.authInfo`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  verifyBearerToken,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';

export interface GateOptions {
  issuer: string;
  /** This gateway's resource identifier (its public URL): the audience tokens must name. */
  resource: string;
  scopes: readonly string[];
  verifier: OAuthTokenVerifier;
  log: (text: string) => void;
}

export interface AuthGate {
  /** The URL of the protected-resource metadata (the 401's pointer). */
  readonly metadataUrl: string;
  /**
   * Answers a metadata request or refuses an unauthorized one (true: answered); otherwise puts the verified token on
   * `req.auth` and returns false.
   */
  answer(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The RFC 9728 document. */
export function protectedResourceMetadata(opts: Pick<GateOptions, 'issuer' | 'resource' | 'scopes'>): object {
  return {
    resource: opts.resource,
    authorization_servers: [opts.issuer],
    ...(opts.scopes.length > 0 ? { scopes_supported: [...opts.scopes] } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'mcp-smart',
  };
}

async function send(res: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string> = {};
  answer.headers.forEach((v, k) => (headers[k] = v));
  res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
}

export function authGate(opts: GateOptions): AuthGate {
  const resourceUrl = new URL(opts.resource);
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
  const suffixed = new URL(metadataUrl).pathname;
  const document = JSON.stringify(protectedResourceMetadata(opts));
  const challenge = { requiredScopes: [...opts.scopes], resourceMetadataUrl: metadataUrl };
  return {
    metadataUrl,
    async answer(req, res) {
      const path = (req.url ?? '/').split('?')[0]!.replace(/(.)\/$/, '$1');
      if (path === WELL_KNOWN || path === suffixed || path === `${WELL_KNOWN}/mcp`) {
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD' }).end();
          return true;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(req.method === 'HEAD' ? undefined : document);
        return true;
      }
      const header = req.headers.authorization;
      // No credentials at all: the challenge carries no error code (RFC 6750 §3.1), only where to learn how.
      if (!header) {
        const scope = opts.scopes.length > 0 ? `, scope="${opts.scopes.join(' ')}"` : '';
        res
          .writeHead(401, {
            'content-type': 'application/json',
            'www-authenticate': `Bearer resource_metadata="${metadataUrl}"${scope}`,
          })
          .end(
            JSON.stringify({
              error: 'invalid_token',
              error_description: 'send "Authorization: Bearer <access token>"',
            }),
          );
        return true;
      }
      let info: AuthInfo;
      try {
        info = await verifyBearerToken(header, {
          verifier: opts.verifier,
          requiredScopes: [...opts.scopes],
          expectedResource: resourceUrl,
          resourceMetadataUrl: metadataUrl,
        });
      } catch (e) {
        if (!(e instanceof OAuthError)) opts.log(`token check failed: ${e instanceof Error ? e.message : String(e)}`);
        const error = e instanceof OAuthError ? e : new OAuthError(OAuthErrorCode.ServerError, 'Internal Server Error');
        await send(res, bearerAuthChallengeResponse(error, challenge));
        return true;
      }
      (req as IncomingMessage & { auth?: AuthInfo }).auth = info;
      return false;
    },
  };
}

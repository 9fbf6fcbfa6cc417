// A real OpenID provider in-process (the `oidc-provider` package) on an ephemeral loopback port, issuing JWT access
// tokens through the client_credentials grant with resource indicators (RFC 8707): the token's `aud` is the resource
// asked for, its `sub` the client id, its `groups` claim the groups given to that client here. Plain ESM so the
// benches use it too (bench/gateway.mjs); types in oidc-issuer.d.mts.
import { createServer } from 'node:http';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';

/** A signing key (RS256) as a private JWK, to share between two issuers when a test needs the same keys. */
export async function signingKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return {
    ...(await exportJWK(privateKey)),
    kid: `k-${Math.random().toString(36).slice(2, 10)}`,
    alg: 'RS256',
    use: 'sig',
  };
}

export async function startIssuer(clients, opts = {}) {
  // The provider needs its URL, known once the port is bound: requests arrive only after it is made.
  const slot = {};
  const http = createServer((req, res) => slot.handler(req, res));
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${http.address().port}`;
  const byId = new Map(clients.map((c) => [c.id, c]));
  const provider = new Provider(url, {
    jwks: { keys: [opts.key ?? (await signingKey())] },
    clients: clients.map((c) => ({
      client_id: c.id,
      client_secret: c.secret,
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => ({
          scope: opts.scopes ?? 'mcp other',
          audience: resource,
          accessTokenFormat: 'jwt',
          accessTokenTTL: byId.get(client.clientId)?.ttlS ?? 600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    ttl: {
      ClientCredentials: (_ctx, _token, client) => byId.get(client.clientId)?.ttlS ?? 600,
    },
    extraTokenClaims: (_ctx, token) => {
      const groups = byId.get(token.clientId ?? '')?.groups;
      return groups ? { groups } : undefined;
    },
  });
  slot.handler = provider.callback();
  return {
    url,
    token: async (client, resource, scope) => {
      const res = await fetch(`${url}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: client.id,
          client_secret: client.secret,
          resource,
          scope,
        }),
      });
      const body = await res.json();
      if (!body.access_token) throw new Error(`token endpoint: ${res.status} ${body.error}: ${body.error_description}`);
      return body.access_token;
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(() => resolve()));
    },
  };
}

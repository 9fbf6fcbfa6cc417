// Types for oidc-issuer.mjs, so TypeScript tests can import it (the bench imports the .mjs directly).
import type { JWK } from 'jose';

export interface IssuerClient {
  id: string;
  secret: string;
  groups?: string[];
  /** Token lifetime in seconds (default 600). */
  ttlS?: number;
}

export interface Issuer {
  url: string;
  /** An access token for `resource` with `scope` (space-separated), by the client_credentials grant. */
  token: (client: IssuerClient, resource: string, scope: string) => Promise<string>;
  close: () => Promise<void>;
}

/** A signing key (RS256) as a private JWK, to share between two issuers when a test needs the same keys. */
export function signingKey(): Promise<JWK>;

export function startIssuer(clients: IssuerClient[], opts?: { key?: JWK; scopes?: string }): Promise<Issuer>;

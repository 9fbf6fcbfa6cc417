// A real OpenID provider in-process for the tests: oidc-issuer.mjs does the work (the benches use it too).
export { signingKey, startIssuer, type Issuer, type IssuerClient } from './oidc-issuer.mjs';

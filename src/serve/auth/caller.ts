/**
 * Who calls, as a verified request carries it (verify.ts puts it in AuthInfo.extra). Apart from verify.ts so that the
 * paths that only read it (every request's handler, stdio included) do not load `jose`: serve's start then compiles
 * the token checks only when an issuer is configured.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

/** Who calls: the token's subject and groups (AuthInfo.extra, for handlers). */
export interface Caller {
  subject: string;
  groups: string[];
}

/** The caller a verified request carries (undefined: no identity, e.g. --token-env or stdio). */
export function callerOf(authInfo: AuthInfo | undefined): Caller | undefined {
  const c = authInfo?.extra?.caller as Caller | undefined;
  return c && typeof c.subject === 'string' ? c : undefined;
}

/**
 * Protocol eras. A 2025-era server (2024-10-07 … 2025-11-25) opens with the `initialize` handshake; a 2026-07-28
 * ("modern") server is stateless and may refuse that handshake with -32022, naming the versions it speaks in
 * `data.supported`. Over stdio mcp-smart opens with `initialize` — a strict 2025 stdio server never sees a request
 * it does not know, so none is left broken by a probe — and falls forward to a pinned 2026-07-28 connection on that
 * refusal. Over Streamable HTTP, where every POST stands alone and a probe harms nothing, it opens in the 2026-07-28
 * era (`server/discover`) and falls back to `initialize` when the server does not speak it (era-connect.ts).
 * The era a server answered in is remembered (era-memo.ts; serve's restarts go straight to it).
 */
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { SmartError } from '../../process/errors.js';
import { networkFailure } from './failure.js';

/** JSON-RPC error code of "Unsupported protocol version" (2026-07-28). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** The modern revisions this client speaks, newest first. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

export type Era = 'legacy' | 'modern';

/** The era of a negotiated protocol version. */
export function eraOf(version: string): Era {
  return version >= '2026-07-28' ? 'modern' : 'legacy';
}

/** JSON-RPC error code of a header that disagrees with the body, or is missing (2026-07-28 HTTP). */
export const HEADER_MISMATCH = -32020;

const METHOD_NOT_FOUND = -32601;

/** The JSON-RPC error a refusal carried: the error itself on stdio, the body of an HTTP 400 over HTTP. */
function refusal(e: unknown): { code?: unknown; data?: unknown } | undefined {
  if (e instanceof ProtocolError) return { code: e.code, data: e.data };
  if (e instanceof SdkHttpError && e.status === 400) {
    const text = (e.data as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string') return undefined;
    try {
      return (JSON.parse(text) as { error?: { code?: unknown; data?: unknown } }).error;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The 2026-07-28 version to try after a server refused the 2025 handshake: the one it named with -32022
 * (`sure`), or — over HTTP, where a 2026-07-28-only endpoint may instead answer 400 -32020 for the missing
 * MCP-Protocol-Version header of a 2026 request — this client's newest, on trial (its failure is not reported);
 * the same for a server that does not know `initialize`, and a sure one for a server that answered it with a
 * 2026-07-28 version.
 */
export function fallForward(e: unknown): { version: string; sure: boolean } | undefined {
  const error = refusal(e);
  if (error?.code === UNSUPPORTED_PROTOCOL_VERSION) {
    const supported = (error.data as { supported?: unknown } | undefined)?.supported;
    const version = Array.isArray(supported) ? MODERN_VERSIONS.find((v) => supported.includes(v)) : undefined;
    return version ? { version, sure: true } : undefined;
  }
  if (error?.code === HEADER_MISMATCH && e instanceof SdkHttpError)
    return { version: MODERN_VERSIONS[0]!, sure: false };
  // A server that does not know initialize at all (-32601), on trial too.
  if (error?.code === METHOD_NOT_FOUND) return { version: MODERN_VERSIONS[0]!, sure: false };
  // A server that answered initialize, but with a 2026-07-28 version (the SDK refuses it for the 2025 handshake).
  const answered = /Server's protocol version is not supported: (\S+)/.exec(e instanceof Error ? e.message : '')?.[1];
  if (answered && MODERN_VERSIONS.includes(answered)) return { version: answered, sure: true };
  return undefined;
}

/**
 * The SDK marks every error that escaped its authorization flow with this registered symbol (an issuer mismatch,
 * a refused registration, a 401 after re-authorization): the server speaks HTTP and wants credentials.
 */
const AUTH_SEAM = Symbol.for('mcp.authSeamEscape');

/**
 * Whether a failed `server/discover` probe leaves the 2025 handshake worth trying: not after an answer from the
 * OAuth flow (another handshake would only authorize a second time) nor when nothing is listening at the address.
 * A plain 401/403 with no OAuth in play (static headers, URL credentials) does fall back: the 2025 handshake's
 * error carries the server's own words (e.g. which credential it refused), the probe's does not.
 */
export function probeFallsBack(e: unknown, oauth = true): boolean {
  if (e instanceof UnauthorizedError || e instanceof SmartError) return false;
  if (typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[AUTH_SEAM] === true) return false;
  const auth = [SdkErrorCode.ClientHttpAuthentication, SdkErrorCode.ClientHttpForbidden] as string[];
  if (e instanceof SdkError && auth.includes(e.code)) return !oauth;
  return networkFailure(e) === undefined;
}

/** A silent probe is given a third of the start-up time, so the 2025 handshake still has the rest. */
export const probeTimeout = (timeoutMs: number): number => Math.max(500, Math.floor(timeoutMs / 3));

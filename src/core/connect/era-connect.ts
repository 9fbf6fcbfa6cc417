/** Which protocol era a connection is opened in, and the fresh attempt when the first era is refused (era.ts). */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../types.js';
import { eraOf, fallForward, probeFallsBack } from './era.js';
import { rememberedVersion, rememberVersion } from './era-memo.js';

/** One connection's part in the era choice: its abort signal, and its session's state between attempts. */
export interface EraAttempt {
  signal: AbortSignal;
  /** Streamable HTTP: a server not seen before is probed with `server/discover`. */
  probe: boolean;
  /** OAuth is in play: a probe failed by the OAuth flow is not retried with the 2025 handshake (era.ts, probeFallsBack). */
  oauth: boolean;
  /** Drops a failed attempt's client and transports before the next attempt. */
  reset: () => Promise<void>;
  /** The protocol version the last attempt negotiated. */
  negotiated: () => string | undefined;
}

/**
 * Over Streamable HTTP (`probe`), a server not seen before is opened in the 2026-07-28 era: the SDK's `auto`
 * negotiation sends `server/discover` and itself falls back to `initialize` on the answers a 2025 server gives
 * (400, 404, 405, -32601); anything else it rejects on (a 500, a dropped connection, a probe timeout) gets a
 * fresh 2025 connection here. Otherwise — and always on stdio — the 2025 era first: a server that refuses it with
 * -32022 naming 2026-07-28 gets a fresh connection pinned to that version (a new process on stdio: the refused
 * client closed the first). A server seen modern earlier (in this process or the cache) is reached pinned at once.
 */
export async function connectInEra(
  def: ServerDefinition,
  attempt: EraAttempt,
  connect: (pin?: string) => Promise<void>,
): Promise<void> {
  const { signal, probe } = attempt;
  const seen = rememberedVersion(def);
  if (probe && seen === undefined) {
    try {
      await connect('auto');
      rememberVersion(def, attempt.negotiated());
      return;
    } catch (e) {
      if (!probeFallsBack(e, attempt.oauth) || signal.aborted) throw e;
      await attempt.reset();
    }
  }
  const known = seen !== undefined && eraOf(seen) === 'modern' ? seen : undefined;
  try {
    await connect(known);
  } catch (e) {
    // Pinned from memory but no longer modern (the server was replaced by a 2025 one): the 2025 handshake.
    const downgraded = known !== undefined && e instanceof SdkError && e.code === SdkErrorCode.EraNegotiationFailed;
    const forward = known ? undefined : fallForward(e);
    if ((!forward && !downgraded) || signal.aborted) throw e;
    await attempt.reset();
    try {
      await connect(forward?.version);
    } catch (second) {
      // A trial of 2026-07-28 that fails too: the server's own refusal says more.
      throw forward && !forward.sure ? e : second;
    }
  }
  rememberVersion(def, attempt.negotiated());
}

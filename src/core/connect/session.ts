/** One snapshot: start or reach a server, initialize, list everything it advertises, always clean up. */
import type { Transport } from '@modelcontextprotocol/client';
import type { SmartError } from '../../process/errors.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import { redact } from './failure.js';
import { MAX_AUTHORIZATIONS, oauthFailure } from './oauth/failure.js';
import { createOAuthProvider, type OAuthOptions, type SmartOAuthProvider } from './oauth/provider.js';
import type { DeclaredCapabilities } from '../declared-capabilities.js';
import type { Listed } from './list-everything.js';
import { ServerSession, type ServerSessionOptions } from './server-session.js';
import { listSignal, withLimit } from './time-limit.js';
import { unattendedAnswer } from './unattended.js';

export { networkFailure, redact, secretValues } from './failure.js';

export interface SessionOptions {
  timeoutMs: number;
  /** The largest message read from a server (stdio line or HTTP answer); default 256 MB. */
  maxMessageBytes?: number;
  signal?: AbortSignal;
  maxPages: number;
  captureStderr: boolean;
  /** Monotonic milliseconds, for elapsedMs. */
  clock: () => number;
  /** Replaces the real transports (tests use the SDK's in-memory pair). */
  createTransport?: (def: ServerDefinition) => Transport;
  /** OAuth for remote servers (token store, and whether a browser may be opened). */
  oauth?: OAuthOptions;
  /** Declared to the server; what it then asks is answered without a user (unattended.ts). */
  capabilities?: DeclaredCapabilities;
}

/** Connects to one server under `timeoutMs` (start-up and listing together) and returns its snapshot; never throws. */
export async function connectServer(def: ServerDefinition, opts: SessionOptions): Promise<ServerSnapshot> {
  const started = opts.clock();
  const snap: ServerSnapshot = {
    name: def.name,
    transport: def.transport,
    source: def.source,
    status: 'ok',
    tools: [],
  };
  const controller = listSignal();
  const base: ServerSessionOptions = {
    ...(opts.maxMessageBytes ? { maxMessageBytes: opts.maxMessageBytes } : {}),
    createTransport: opts.createTransport,
    capabilities: opts.capabilities,
    onServerRequest: (method) => unattendedAnswer(method),
  };
  let session = new ServerSession(def, base);
  let authProvider: SmartOAuthProvider | undefined;
  const attempt = async (): Promise<Listed> => {
    await session.open(controller.signal, opts.timeoutMs);
    session.progress.phase = 'listing';
    snap.serverInfo = session.serverInfo;
    if (session.protocolVersion) snap.protocolVersion = session.protocolVersion;
    const instructions = session.instructions;
    if (instructions !== undefined) snap.instructions = instructions;
    return session.listEverything(controller.signal, opts.timeoutMs, opts.maxPages);
  };
  const work = (async () => {
    authProvider = await createOAuthProvider(def, opts.oauth && { ...opts.oauth, signal: controller.signal });
    if (authProvider) session = new ServerSession(def, { ...base, authProvider });
    for (let round = 1; ; round++) {
      try {
        return await attempt();
      } catch (e) {
        // A browser authorization just finished (the transport reports it as UnauthorizedError): connect again.
        if (!authProvider?.takeFreshAuthorization() || round > MAX_AUTHORIZATIONS) throw e;
        await session.close();
        session = new ServerSession(def, { ...base, authProvider });
      }
    }
  })();
  let failure: SmartError | undefined;
  try {
    const listed = await withLimit(work, opts.timeoutMs, opts.signal);
    snap.elapsedMs = Math.round(opts.clock() - started);
    // Malformed entries and failed optional lists are notes on an ok server: the well-formed tools count.
    Object.assign(snap, listed.lists);
    const notes = [...(listed.notes ?? []), ...(listed.malformed ? [listed.malformed.message] : [])];
    if (notes.length > 0) snap.notes = notes.map((n) => redact(n, session.secrets));
  } catch (e) {
    // A failed list is not kept: partial or looping pages would give wrong totals.
    snap.elapsedMs = Math.round(opts.clock() - started);
    session.secrets.push(...(authProvider?.secrets() ?? []));
    session.secrets.sort((a, b) => b.length - a.length);
    failure = session.describe(oauthFailure(e, def) ?? e, opts.timeoutMs);
  } finally {
    controller.abort();
    await session.close();
    await authProvider?.close();
  }
  snap.transport = session.transportKind;
  if (failure) {
    snap.status = 'error';
    snap.error = redact(failure.message, session.secrets);
    snap.errorCode = failure.code;
  }
  const stderr = session.stderrText();
  if (opts.captureStderr && stderr) snap.stderr = stderr;
  return snap;
}

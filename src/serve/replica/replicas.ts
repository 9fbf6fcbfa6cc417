/**
 * Serve as one of several replicas (issue 38.2). A call held between input_required rounds lives in the process
 * that started it (the open call to a 2025 server behind, bridge.ts); the requestState the client gets is sealed
 * (seal.ts) and names that replica (id and internal address) and the held call. Any replica the client's retry
 * reaches opens it: its own held call is resumed here; another's is forwarded to the owner's internal endpoint
 * (POST /mcp-smart/replica/round, HMAC under the shared key) and the owner's answer — the result, or the next round
 * with a state it sealed — goes back as is. An owner that is gone (its heartbeat stopped, connection refused or
 * reset, no answer in time) gives the client a clear error result to call again, never a hang.
 */
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  MissingCapability,
  UnknownRequestState,
  type Bridge,
  type BridgeResult,
  roundFailure,
  type Round,
  type StateCodec,
} from '../bridge.js';
import type { ReplicaRegistry } from './registry.js';
import { StateRefused, type StateKeys } from './seal.js';

export const INTERNAL_PATH = '/mcp-smart/replica/round';
const HEADER = 'x-mcp-smart-replica';
/** A signed internal request older or newer than this is refused (replayed, or clocks too far apart). */
const SKEW_MS = 60_000;
const MAX_BODY = 4 * 1024 * 1024;
/** The owner must accept the connection within this; a refused one fails at once. */
const CONNECT_MS = 3_000;

export interface ReplicaOptions {
  id: string;
  /** The origin other replicas reach this one at (http://host:port). */
  address: string;
  keys: StateKeys;
  registry?: ReplicaRegistry;
  /** The longest a forwarded round may take (the owner waits for the server behind at most the call timeout). */
  roundTimeoutMs: number;
  now: () => number;
  log: (text: string) => void;
  /** --debug lines: each round forwarded or answered for another replica. */
  debug?: ((text: string) => void) | undefined;
}

/** Raised when the replica holding a call cannot be reached: the client should call again. */
export class ReplicaGone extends Error {}

/** A forwarded round's answer on the wire (owner → forwarder). */
type Answer =
  | { ok: true; result: BridgeResult }
  | { ok: false; kind: 'unknown' | 'missing' | 'error'; message: string; capability?: string };

export class Replicas implements StateCodec {
  /** Rounds this replica forwarded, and rounds it answered for another (for --debug and the tests' logs). */
  readonly counts = { forwarded: 0, answered: 0, gone: 0 };

  constructor(private readonly opts: ReplicaOptions) {}

  seal(id: string, name: string, expiresAt: number): string {
    return this.opts.keys.seal({ r: this.opts.id, a: this.opts.address, h: id, n: name, exp: expiresAt });
  }

  open(state: string, name: string): ReturnType<StateCodec['open']> {
    let p: Record<string, unknown>;
    try {
      p = this.opts.keys.open(state, this.opts.now());
    } catch (e) {
      if (e instanceof StateRefused) throw new UnknownRequestState(e.message);
      throw e;
    }
    if (p.n !== name || typeof p.h !== 'string' || typeof p.r !== 'string' || typeof p.a !== 'string')
      throw new UnknownRequestState('it was issued for another request');
    if (p.r === this.opts.id) return { local: p.h };
    const owner = { id: p.r, address: p.a };
    return { remote: (round, responses) => this.forward(owner, state, round, responses) };
  }

  /** Resumes a round on the replica that holds it; its answer, or an error result to call again. */
  private async forward(
    owner: { id: string; address: string },
    state: string,
    round: Round,
    responses: Record<string, unknown> | undefined,
  ): Promise<BridgeResult> {
    this.counts.forwarded++;
    try {
      const known = await this.opts.registry?.lookup(owner.id);
      if (known?.gone) throw new ReplicaGone(known.why);
      const address = known?.address ?? owner.address;
      const body = JSON.stringify({ state, name: round.name, capabilities: round.capabilities, responses });
      this.opts.debug?.(`round of "${round.name}" forwarded to replica ${owner.id} at ${address}`);
      const answer = await this.post(address, body, round.signal);
      if (answer.ok) return answer.result;
      if (answer.kind === 'unknown') throw new UnknownRequestState(answer.message);
      if (answer.kind === 'missing') throw new MissingCapability(answer.capability ?? 'unknown');
      throw new Error(answer.message);
    } catch (e) {
      if (!(e instanceof ReplicaGone)) throw e;
      this.counts.gone++;
      const text = `mcp-smart: the replica that held this call (${owner.id}) is gone: ${e.message}. The call was lost with it; call the tool again.`;
      this.opts.log(`a round for replica ${owner.id} could not be resumed: ${e.message}`);
      return roundFailure(round.name, text, e);
    }
  }

  private post(address: string, body: string, signal: AbortSignal): Promise<Answer> {
    const url = new URL(INTERNAL_PATH, address);
    return new Promise<Answer>((resolve, reject) => {
      const gone = (why: string): void => reject(new ReplicaGone(why));
      const req = httpRequest(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          [HEADER]: this.opts.keys.sign(body, this.opts.now()),
        },
        signal,
        // A fresh connection each round: a pooled one the owner closed for idleness would read as the owner gone.
        agent: false,
      });
      const connect = setTimeout(() => req.destroy(new Error(`no connection within ${CONNECT_MS} ms`)), CONNECT_MS);
      const overall = setTimeout(
        () => req.destroy(new Error(`no answer within ${this.opts.roundTimeoutMs} ms`)),
        this.opts.roundTimeoutMs,
      );
      req.on('socket', (s) => s.once('connect', () => clearTimeout(connect)));
      req.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(connect);
        clearTimeout(overall);
        if (signal.aborted) return reject(new Error('the client cancelled the call'));
        gone(
          e.code === 'ECONNREFUSED' ? 'connection refused' : e.code === 'ECONNRESET' ? 'connection reset' : e.message,
        );
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('error', () => undefined);
        res.on('close', () => {
          clearTimeout(connect);
          clearTimeout(overall);
          if (!res.complete) return gone('it stopped while answering');
          try {
            const answer = JSON.parse(text) as Answer;
            if (res.statusCode === 200 && typeof answer === 'object' && answer !== null) return resolve(answer);
          } catch {
            // Below: not an answer from a replica of this gateway.
          }
          gone(`its address answered HTTP ${res.statusCode ?? '?'}, not as a replica of this gateway`);
        });
      });
      req.end(body);
    });
  }

  /** The owner's side: a round forwarded by another replica, resumed on this one's bridge. */
  async handleInternal(req: IncomingMessage, res: ServerResponse, bridge: Bridge): Promise<void> {
    const send = (status: number, answer: Answer | { error: string }): void =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    if (req.method !== 'POST') return send(405, { error: 'POST only' });
    let text = '';
    for await (const chunk of req) {
      text += String(chunk);
      if (text.length > MAX_BODY) return send(413, { error: 'too large' });
    }
    if (!this.opts.keys.verify(req.headers[HEADER] as string | undefined, text, this.opts.now(), SKEW_MS))
      return send(401, { error: 'not signed with a key of this gateway' });
    let msg: { state?: unknown; name?: unknown; capabilities?: unknown; responses?: unknown };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return send(400, { error: 'not JSON' });
    }
    if (typeof msg.state !== 'string' || typeof msg.name !== 'string') return send(400, { error: 'no state' });
    // A state naming another replica (this address now serves under a new id) is not resumed here, nor sent on.
    try {
      if ('remote' in this.open(msg.state, msg.name))
        return send(200, { ok: false, kind: 'unknown', message: 'Invalid requestState: its replica has restarted' });
    } catch (e) {
      if (e instanceof UnknownRequestState) return send(200, { ok: false, kind: 'unknown', message: e.message });
      throw e;
    }
    this.counts.answered++;
    this.opts.debug?.(`answering a round of "${msg.name}" forwarded by another replica`);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const round: Round = {
      name: msg.name,
      capabilities: (msg.capabilities ?? {}) as Record<string, unknown>,
      signal: abort.signal,
    };
    try {
      const result = await bridge.resume(msg.state, round, msg.responses as Record<string, unknown> | undefined);
      send(200, { ok: true, result });
    } catch (e) {
      if (e instanceof UnknownRequestState) return send(200, { ok: false, kind: 'unknown', message: e.message });
      if (e instanceof MissingCapability)
        return send(200, { ok: false, kind: 'missing', message: e.message, capability: e.capability });
      send(200, { ok: false, kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  }
}

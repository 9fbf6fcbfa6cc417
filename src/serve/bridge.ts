/**
 * The era bridge for 2026-07-28 clients: a server behind that asks its client mid-call (a 2025 server's
 * elicitation/create, sampling/createMessage or roots/list request; a 2026 server's input_required, which the SDK
 * client turns into the same requests) is answered through Multi Round-Trip Requests. The call to the server stays
 * open; the client gets `resultType: "input_required"` with the requests as `inputRequests` and a `requestState`
 * naming the held call; its retry with `inputResponses` answers them, and the next round waits for the server's
 * result or its next request. A held call is bounded: each wait for the client's retry (`timeoutMs`), the rounds
 * per call (`maxRounds`), the calls held at once of one client (`maxPerClient`; which client: client-key.ts) and of
 * all clients together (`maxOpen`), so one client holding many calls cannot take another's room. A call is its
 * client's from its first request to its end, whichever replica or request resumes it; it is freed when it ends,
 * when its client cancels it, at `timeoutMs` (a sessionless 2026-07-28 client is never known to have gone) and when
 * serve stops (a stdio client leaving stops serve). A call whose client never retries, cancels or
 * overruns a bound is cancelled to the server behind (the SDK sends notifications/cancelled). A server that cannot go
 * on without a capability the request did not declare (in-flight.ts: it asked for sampling, or for what serve never
 * declared to it) fails the call with MissingCapability (-32021 on the wire), and the call to it is cancelled.
 * Whose question it is (in-flight.ts): a held call leaves its server's ask gate while held and its retry enters again
 * before the answers reach the server, so the server's next question is asked while this call is the one running.
 * A 2025 server's -32042 (URL elicitation required) is a round too: its URL elicitations are asked, and the
 * client's retry runs the call to the server again (url-elicitation.ts); one declined ends it as its method ends
 * errors (a tool's error result, a JSON-RPC error for prompts/get and resources/read).
 */
import { randomBytes } from 'node:crypto';
import type { Pass } from './ask-gate.js';
import type { Asker } from './in-flight.js';
import { declaresUrlElicitation, TOOL_CALL_ROUND, urlDeclinedText, urlElicitations } from './url-elicitation.js';

export const BRIDGE_DEFAULTS = { timeoutMs: 60_000, maxRounds: 8, maxOpen: 256, maxPerClient: 32 } as const;

/** `maxPerClient` unset: no bound per client (only `maxOpen`). */
export type BridgeLimits = { timeoutMs: number; maxRounds: number; maxOpen: number; maxPerClient?: number };

type Params = Record<string, unknown> | undefined;
type Progress = { progress: number; total?: number; message?: string };

/** One round: a request from the client (the first call, or a retry). */
export interface Round {
  /** The served tool name (a retry must name the same tool as the call it resumes). */
  name: string;
  /** The client capabilities this request declares (its _meta envelope). */
  capabilities: Record<string, unknown>;
  signal: AbortSignal;
  onprogress?: (p: Progress) => void;
  /** Log messages for this round's stream (set when its request named a log level). */
  onlog?: (params: Record<string, unknown>) => void;
  /** Which client sends it (client-key.ts): a first request makes the call this client's. */
  client?: string;
}

/** What the bridged call runs with: the held call's signal, asker and progress. */
export interface HeldContext {
  signal: AbortSignal;
  asker: Asker;
  /** Set when the first request asked for progress. */
  onprogress?: (p: Progress) => void;
  onlog: (params: Record<string, unknown>) => void;
  /** The client whose call it is. */
  client?: string;
}

export type BridgeResult = Record<string, unknown>;

interface Ask {
  method: string;
  params: Params;
  resolve: (r: Record<string, unknown>) => void;
  reject: (e: unknown) => void;
}

/** The token a client echoes: unguessable, new each round (an old round's token is spent). */
const mint = (): string => randomBytes(18).toString('base64url');

/** A request that needs a capability its client did not declare: the server behind asked for `capability`. */
export class MissingCapability extends Error {
  constructor(readonly capability: string) {
    super(`The server behind needs the client's ${capability} capability, which this request did not declare`);
  }

  /** As `requiredCapabilities` names it: a dotted name nests (`elicitation.url` is `{elicitation: {url: {}}}`). */
  get required(): Record<string, unknown> {
    return this.capability.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), {});
  }
}

/** The error a retry gets for a requestState that names no held call (tampered, spent, expired or released). */
export class UnknownRequestState extends Error {
  constructor(why?: string) {
    super(
      why
        ? `Invalid requestState: ${why}`
        : 'Invalid or expired requestState: no call is waiting for this input (it completed, timed out or was cancelled)',
    );
  }
}

/**
 * How held calls are named to clients when several replicas serve (replica/replicas.ts): a sealed state naming the
 * replica that holds the call; opening one held elsewhere gives the way to resume it there.
 */
export interface StateCodec {
  seal(id: string, name: string, expiresAt: number): string;
  /** Throws UnknownRequestState for a state that is not a valid one of ours. */
  open(
    state: string,
    name: string,
  ):
    | { local: string }
    | { remote: (round: Round, responses: Record<string, unknown> | undefined) => Promise<BridgeResult> };
}

class HeldCall {
  readonly controller = new AbortController();
  readonly asks = new Map<string, Ask>();
  /** Retries so far. */
  rounds = 0;
  /** Held between rounds, waiting for the client's retry. */
  held = false;
  private seq = 0;
  private wake?: () => void;
  round?: Round;
  /** A capability the server behind asked for that the request did not declare. */
  missing?: string;
  outcome!: Promise<{ ok: true; value: BridgeResult } | { ok: false; error: unknown }>;
  timer?: NodeJS.Timeout;
  /** Its place on the ask gate of each server it runs on (in-flight.ts), left while held. */
  readonly passes = new Set<Pass>();
  /** Runs the call to the server again (after the user completed its URL elicitations). */
  rerun?: () => void;
  /** Set while the call's outcome is the server's -32042: its URL elicitations are asked. */
  urlRound = false;
  /** Keys of those URL elicitations still unanswered. */
  readonly urls = new Set<string>();
  /** An answer to one of them that was not "accept". */
  declined?: string;

  constructor(
    readonly name: string,
    /** The client whose call it is (its first request's). */
    readonly client: string | undefined,
  ) {}

  ask(method: string, params: Params, signal: AbortSignal): Promise<Record<string, unknown>> {
    if (this.controller.signal.aborted) return Promise.reject(new Error('the call was released'));
    const key = `${method.split('/')[0]}-${++this.seq}`;
    return new Promise((resolve, reject) => {
      this.asks.set(key, { method, params, resolve, reject });
      const gone = (): void => void (this.asks.delete(key) && reject(new Error('the server withdrew its request')));
      signal.addEventListener('abort', gone, { once: true });
      this.wake?.();
    });
  }

  /** The server's -32042: its URL elicitations are this round's requests (their answers go nowhere but here). */
  askUrls(elicitations: Record<string, unknown>[]): void {
    this.urlRound = true;
    for (const params of elicitations) {
      const key = `elicitation-${++this.seq}`;
      this.urls.add(key);
      const resolve = (r: Record<string, unknown>): void => {
        this.urls.delete(key);
        if (r.action !== 'accept') this.declined ??= String(r.action);
      };
      this.asks.set(key, { method: 'elicitation/create', params, resolve, reject: () => undefined });
    }
  }

  unmet(capability: string): void {
    this.missing ??= capability;
    this.wake?.();
  }

  /** Resolves when a request is waiting for the client (or one it cannot answer was made). */
  asked(): Promise<void> {
    if (this.asks.size > 0 || this.missing !== undefined) return Promise.resolve();
    return new Promise<void>((resolve) => (this.wake = resolve)).then(() => {
      this.wake = undefined;
    });
  }

  release(reason: string): void {
    clearTimeout(this.timer);
    const error = new Error(reason);
    for (const a of this.asks.values()) a.reject(error);
    this.asks.clear();
    if (!this.controller.signal.aborted) this.controller.abort(error);
  }
}

export class Bridge {
  private readonly held = new Map<string, HeldCall>();
  /** Set when serve runs as one of several replicas (or over HTTP): requestStates are sealed. */
  states?: StateCodec;

  constructor(
    private readonly limits: BridgeLimits,
    private readonly log: (text: string) => void,
  ) {}

  /** Calls held open now, waiting for their client's retry. */
  get open(): number {
    return this.held.size;
  }

  /** Calls of `client` held open now (the held calls are few: at most maxOpen, counted when one more would be held). */
  heldBy(client: string | undefined): number {
    let n = 0;
    for (const call of this.held.values()) if (call.client === client) n++;
    return n;
  }

  /** A first request: runs the call; answers its result, or input_required when the server behind asks. */
  async start(round: Round, run: (ctx: HeldContext) => Promise<BridgeResult>): Promise<BridgeResult> {
    const call = new HeldCall(round.name, round.client);
    call.round = round;
    const asker: Asker = {
      capabilities: round.capabilities,
      ask: (method, params, signal) => call.ask(method, params as Params, signal),
      waiting: () => call.held,
      onPass: (pass) => {
        call.passes.add(pass);
        return () => call.passes.delete(pass);
      },
      unmet: (capability) => call.unmet(capability),
    };
    // Progress is asked of the server behind only when the first request asked for it (its call is made once, with
    // or without a progress token); it then reaches the round waiting at the time. Without it no token is sent.
    const held: HeldContext = {
      signal: call.controller.signal,
      asker,
      onprogress: round.onprogress ? (p) => call.round?.onprogress?.(p) : undefined,
      onlog: (params) => call.round?.onlog?.(params),
      ...(round.client !== undefined && { client: round.client }),
    };
    call.rerun = () => {
      call.outcome = run(held).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    };
    call.rerun();
    return this.next(call, round);
  }

  /** A retry carrying `requestState`: answers the held call's requests, then its next round. */
  async resume(state: string, round: Round, responses: Record<string, unknown> | undefined): Promise<BridgeResult> {
    const where = this.states ? this.states.open(state, round.name) : { local: state };
    if ('remote' in where) return where.remote(round, responses);
    const id = where.local;
    const call = this.held.get(id);
    if (!call || call.name !== round.name) throw new UnknownRequestState();
    this.held.delete(id);
    clearTimeout(call.timer);
    call.round = round;
    if (++call.rounds > this.limits.maxRounds) {
      call.release('too many rounds');
      return {
        content: [
          {
            type: 'text',
            text: `mcp-smart: the server behind still asked for input after ${this.limits.maxRounds} rounds; the call was cancelled.`,
          },
        ],
        isError: true,
      };
    }
    // Back on the gate before the server gets its answers (it may ask again at once); other calls that may be asked
    // are let finish first, calls not started yet wait. The client cancelling, or serve releasing the call, ends it.
    try {
      const stop = AbortSignal.any([round.signal, call.controller.signal]);
      for (const pass of call.passes) await pass.enter(stop);
    } catch {
      call.release('the client cancelled the call');
      return this.next(call, round);
    }
    call.held = false;
    for (const [key, ask] of call.asks) {
      const answer = responses?.[key];
      // An entry that is missing or not an object is asked again in the next round.
      if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) continue;
      call.asks.delete(key);
      ask.resolve(answer as Record<string, unknown>);
    }
    // The server's URL elicitations all answered: the call is made again, as a 2025 client retries it.
    if (call.urlRound && call.urls.size === 0) {
      call.urlRound = false;
      if (call.declined !== undefined) {
        call.release('the user declined a URL elicitation');
        return roundFailure(call.name, urlDeclinedText(call.name, call.declined));
      }
      call.rerun?.();
    }
    return this.next(call, round);
  }

  /** Waits for the call's result or its next requests; holds the call between rounds. */
  private async next(call: HeldCall, round: Round): Promise<BridgeResult> {
    call.round = round;
    const cancel = (): void => call.release('the client cancelled the call');
    if (round.signal.aborted) cancel();
    round.signal.addEventListener('abort', cancel, { once: true });
    try {
      const first = await Promise.race([call.outcome, call.asked().then(() => undefined)]);
      if (call.missing !== undefined) {
        call.release(`the client did not declare ${call.missing}`);
        throw new MissingCapability(call.missing);
      }
      if (first?.ok) return first.value;
      if (first) {
        // The server's -32042: its URL elicitations are asked (once; those left unanswered are asked again).
        const urls = call.urlRound ? [] : urlElicitations(first.error);
        if (!urls || !call.rerun) throw first.error;
        if (urls.length > 0 && !declaresUrlElicitation(round.capabilities)) {
          call.release('the client did not declare elicitation.url');
          throw new MissingCapability('elicitation.url');
        }
        if (urls.length > 0) call.askUrls(urls);
      } else {
        // Requests a server sends together (a 2026 server's several inputRequests) go out in one round.
        await new Promise((r) => setTimeout(r, 5));
        if (call.asks.size === 0) return this.next(call, round);
      }
    } finally {
      round.signal.removeEventListener('abort', cancel);
    }
    const refused = this.overBound(call);
    if (refused) return refused;
    const id = mint();
    this.held.set(id, call);
    call.held = true;
    call.round = undefined;
    // Held: its server waits for the answer, so the next call that may be asked can run meanwhile.
    for (const pass of call.passes) pass.leave();
    call.timer = setTimeout(() => {
      if (this.held.get(id) !== call) return;
      this.held.delete(id);
      call.release(`no retry within ${this.limits.timeoutMs} ms`);
      this.log(`a call to "${call.name}" waited ${this.limits.timeoutMs} ms for its client's input and was cancelled`);
    }, this.limits.timeoutMs);
    call.timer.unref();
    const inputRequests = Object.fromEntries(
      [...call.asks].map(([key, a]) => [key, { method: a.method, params: a.params ?? {} }]),
    );
    const requestState = this.states?.seal(id, call.name, Date.now() + this.limits.timeoutMs) ?? id;
    return { resultType: 'input_required', inputRequests, requestState };
  }

  /**
   * An error result when holding `call` would pass a bound (its client's, or all clients'): the call is released
   * (cancelled to the server behind), and the others are untouched.
   */
  private overBound(call: HeldCall): BridgeResult | undefined {
    const { maxOpen, maxPerClient } = this.limits;
    const own = maxPerClient !== undefined && this.heldBy(call.client) >= maxPerClient;
    if (!own && this.held.size < maxOpen) return undefined;
    call.release('too many calls held');
    const text = own
      ? `${maxPerClient} calls of this client are already waiting for its input, the limit per client (mcp-smart holds at most ${maxOpen} for all clients); answer or abandon one, then call again.`
      : `${maxOpen} calls are already waiting for input from their clients, the limit for all clients; answer or abandon one, then call again.`;
    this.log(
      `warning: ${own ? `a client's ${maxPerClient} calls are` : `${maxOpen} calls are`} already waiting for their client's input; one more was cancelled`,
    );
    return { content: [{ type: 'text', text: `mcp-smart: ${text}` }], isError: true };
  }

  /** Releases every held call (serve is stopping). */
  close(): void {
    for (const call of this.held.values()) call.release('serve is stopping');
    this.held.clear();
  }
}

/**
 * A round that ends in failure, as its method ends errors: a tool call with an error result (the model reads it);
 * prompts/get and resources/read, which have none, with a JSON-RPC error, thrown (answered -32603).
 */
export function roundFailure(roundName: string, text: string, cause?: unknown): Record<string, unknown> {
  if (roundName.startsWith(TOOL_CALL_ROUND)) return { content: [{ type: 'text', text }], isError: true };
  throw new Error(text, cause === undefined ? undefined : { cause });
}

// The era bridge's rounds and bounds (bridge.ts), and which call a server's request is tied to (in-flight.ts).
// The calls here are plain async functions that ask through the asker the bridge hands them, as the SDK client's
// request handlers do for a server behind serve; the end-to-end path with real processes is serve-bridge.test.ts.
import { describe, expect, it } from 'vitest';
import {
  Bridge,
  MissingCapability,
  UnknownRequestState,
  type HeldContext,
  type Round,
} from '../../src/serve/bridge.js';
import { SessionCalls } from '../../src/serve/draining.js';
import { InFlight, type Asker, type CallContext } from '../../src/serve/in-flight.js';
import { validateSmartConfig } from '../../src/core/config/validate.js';
import { DEFAULT_WEIGHTS } from '../../src/core/discover/weights.js';

const LIMITS = { timeoutMs: 5_000, maxRounds: 8, maxOpen: 32 };
const round = (name = 'tools/call sign_up', signal = new AbortController().signal): Round => ({
  name,
  capabilities: { elicitation: {}, sampling: {} },
  signal,
});
const elicit = (ctx: HeldContext, message: string) =>
  ctx.asker.ask('elicitation/create', { message, requestedSchema: { type: 'object' } }, ctx.signal);
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });

type InputRequired = { resultType: string; inputRequests: Record<string, { method: string }>; requestState: string };

describe('Bridge', () => {
  it('a call that asks nothing answers at once; nothing is held', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    expect(await bridge.start(round(), async () => text('done'))).toEqual(text('done'));
    expect(bridge.open).toBe(0);
  });

  it('asks become input_required rounds; each retry answers them and gets the next round, with a new requestState', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    const first = (await bridge.start(round(), async (ctx) => {
      const a = await elicit(ctx, 'name?');
      const b = await elicit(ctx, 'colour?');
      return text(`${String((a.content as { v: string }).v)} likes ${String((b.content as { v: string }).v)}`);
    })) as InputRequired;
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests).toEqual({
      'elicitation-1': {
        method: 'elicitation/create',
        params: { message: 'name?', requestedSchema: { type: 'object' } },
      },
    });
    expect(bridge.open).toBe(1);
    const second = (await bridge.resume(first.requestState, round(), {
      'elicitation-1': { action: 'accept', content: { v: 'ada' } },
    })) as InputRequired;
    expect(Object.keys(second.inputRequests)).toEqual(['elicitation-2']);
    expect(second.requestState).not.toBe(first.requestState);
    // The spent state is refused; so is one naming another tool.
    await expect(bridge.resume(first.requestState, round(), {})).rejects.toBeInstanceOf(UnknownRequestState);
    await expect(bridge.resume(second.requestState, round('tools/call other'), {})).rejects.toBeInstanceOf(
      UnknownRequestState,
    );
  });

  it('an entry left unanswered (or not an object) is asked again; requests sent together share one round', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    const first = (await bridge.start(round(), async (ctx) => {
      const [a, b] = await Promise.all([
        elicit(ctx, 'one?'),
        ctx.asker.ask('sampling/createMessage', { messages: [], maxTokens: 5 }, ctx.signal),
      ]);
      return text(`${String(a.action)} ${String(b.model)}`);
    })) as InputRequired;
    expect(Object.keys(first.inputRequests)).toEqual(['elicitation-1', 'sampling-2']);
    const again = (await bridge.resume(first.requestState, round(), {
      'elicitation-1': { action: 'accept' },
      'sampling-2': 12345,
      extra: { action: 'accept' },
    })) as InputRequired;
    expect(Object.keys(again.inputRequests)).toEqual(['sampling-2']);
    const done = await bridge.resume(again.requestState, round(), { 'sampling-2': { model: 'm' } });
    expect(done).toEqual(text('accept m'));
    expect(bridge.open).toBe(0);
  });

  it('more retries than maxRounds end the call with an error result and cancel it', async () => {
    const bridge = new Bridge({ ...LIMITS, maxRounds: 2 }, () => undefined);
    let signal: AbortSignal | undefined;
    let state = (
      (await bridge.start(round(), async (ctx) => {
        signal = ctx.signal;
        for (;;) await elicit(ctx, 'again?');
      })) as InputRequired
    ).requestState;
    for (let i = 0; i < 2; i++) {
      const next = (await bridge.resume(state, round(), {
        [`elicitation-${i + 1}`]: { action: 'accept' },
      })) as InputRequired;
      state = next.requestState;
    }
    const over = await bridge.resume(state, round(), { 'elicitation-3': { action: 'accept' } });
    expect(over).toMatchObject({ isError: true });
    expect(JSON.stringify(over)).toContain('after 2 rounds');
    expect(signal?.aborted).toBe(true);
  });

  it('past maxOpen held calls, another that asks gets an error result and is cancelled', async () => {
    const logged: string[] = [];
    const bridge = new Bridge({ ...LIMITS, maxOpen: 1 }, (t) => logged.push(t));
    const asks = async (ctx: HeldContext) => text(String((await elicit(ctx, 'x')).action));
    expect(((await bridge.start(round(), asks)) as InputRequired).resultType).toBe('input_required');
    let second: AbortSignal | undefined;
    const refused = await bridge.start(round(), (ctx) => {
      second = ctx.signal;
      return asks(ctx);
    });
    expect(refused).toMatchObject({ isError: true });
    expect(second?.aborted).toBe(true);
    expect(bridge.open).toBe(1);
    expect(logged.join('\n')).toContain('1 calls are already waiting');
  });

  it('past maxPerClient a client’s next held call is refused naming the limit; another client still holds; its end frees room', async () => {
    const logged: string[] = [];
    const bridge = new Bridge({ ...LIMITS, maxOpen: 8, maxPerClient: 2 }, (t) => logged.push(t));
    const asks = async (ctx: HeldContext) => text(String((await elicit(ctx, 'x')).action));
    const of = (client: string): Round => ({ ...round(), client });
    const a: InputRequired[] = [];
    for (let i = 0; i < 2; i++) a.push((await bridge.start(of('a'), asks)) as InputRequired);
    expect(a.map((r) => r.resultType)).toEqual(['input_required', 'input_required']);
    let third: AbortSignal | undefined;
    const refused = await bridge.start(of('a'), (ctx) => {
      third = ctx.signal;
      expect(ctx.client).toBe('a');
      return asks(ctx);
    });
    expect(refused).toMatchObject({ isError: true });
    expect(JSON.stringify(refused)).toContain(
      '2 calls of this client are already waiting for its input, the limit per client',
    );
    expect(third?.aborted).toBe(true);
    // Another client is not refused: it holds, and its call goes through.
    const b = (await bridge.start(of('b'), asks)) as InputRequired;
    expect(b.resultType).toBe('input_required');
    expect([bridge.heldBy('a'), bridge.heldBy('b')]).toEqual([2, 1]);
    expect(await bridge.resume(b.requestState, of('b'), { 'elicitation-1': { action: 'accept' } })).toEqual(
      text('accept'),
    );
    // One of a's calls ends (a retry from any request: the call stays a's): a holds one more again.
    expect(await bridge.resume(a[0]!.requestState, round(), { 'elicitation-1': { action: 'decline' } })).toEqual(
      text('decline'),
    );
    expect(bridge.heldBy('a')).toBe(1);
    expect(((await bridge.start(of('a'), asks)) as InputRequired).resultType).toBe('input_required');
    expect(logged.join('\n')).toContain("a client's 2 calls are already waiting");
    bridge.close();
    expect(bridge.heldBy('a')).toBe(0);
  });

  it('a call not retried within timeoutMs is cancelled and its requestState refused', async () => {
    const logged: string[] = [];
    const bridge = new Bridge({ ...LIMITS, timeoutMs: 30 }, (t) => logged.push(t));
    let signal: AbortSignal | undefined;
    const first = (await bridge.start(round(), async (ctx) => {
      signal = ctx.signal;
      return text(String((await elicit(ctx, 'x')).action));
    })) as InputRequired;
    await new Promise((r) => setTimeout(r, 80));
    expect(signal?.aborted).toBe(true);
    expect(bridge.open).toBe(0);
    expect(logged.join('\n')).toContain('waited 30 ms');
    await expect(bridge.resume(first.requestState, round(), {})).rejects.toBeInstanceOf(UnknownRequestState);
  });

  it('the client cancelling a round cancels the call behind', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    const client = new AbortController();
    let signal: AbortSignal | undefined;
    const pending = bridge.start(round('tools/call wait', client.signal), (ctx) => {
      signal = ctx.signal;
      return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('cancelled'))));
    });
    client.abort();
    await expect(pending).rejects.toThrow('cancelled');
    expect(signal?.aborted).toBe(true);
  });

  it('progress goes to the round in flight', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    const seen: number[] = [];
    const result = await bridge.start({ ...round(), onprogress: (p) => seen.push(p.progress) }, async (ctx) => {
      ctx.onprogress?.({ progress: 1 });
      ctx.onprogress?.({ progress: 2 });
      return text('ok');
    });
    expect(result).toEqual(text('ok'));
    expect(seen).toEqual([1, 2]);
  });

  it('a first request that asked for no progress asks none of the server behind (no progress token goes out)', async () => {
    const bridge = new Bridge(LIMITS, () => undefined);
    let given: unknown = 'unset';
    await bridge.start(round(), async (ctx) => {
      given = ctx.onprogress;
      return text('ok');
    });
    expect(given).toBeUndefined();
  });
});

describe('InFlight: which client answers a server’s request', () => {
  // A 2025 session's asker (no `waiting`: only a 2026-07-28 call held by the bridge has one; in-flight-held.test.ts).
  const asker = (caps: Record<string, unknown>, label: string, waiting?: boolean): Asker => ({
    capabilities: caps,
    ask: () => Promise.resolve({ label }),
    ...(waiting === undefined ? {} : { waiting: () => waiting }),
  });
  const ctx = (a?: Asker): CallContext => ({ signal: new AbortController().signal, asker: a });
  const ask = async (f: InFlight, server: string, method: string) =>
    (await f.askerFor(server, method)?.ask(method, {}, new AbortController().signal))?.label;

  it('calls that may be asked run one at a time per server: the one in flight is asked, never a later one', async () => {
    const f = new InFlight();
    let release!: () => void;
    const open = new Promise<void>((r) => (release = r));
    let newerRan = false;
    const older = f.track('s', ctx(asker({ elicitation: {} }, 'older')), () => open);
    const newer = f.track('s', ctx(asker({ sampling: {} }, 'newer')), async () => {
      newerRan = true;
      // Alone now: its question is its own.
      expect(await ask(f, 's', 'sampling/createMessage')).toBe('newer');
    });
    await new Promise((r) => setImmediate(r));
    // Only the older call is in flight: a sampling question is not the newer call's to answer (it has not started).
    expect(f.askerFor('s', 'sampling/createMessage')).toBeUndefined();
    expect(await ask(f, 's', 'elicitation/create')).toBe('older');
    expect(newerRan).toBe(false);
    // A call that cannot be asked waits behind them too, and other servers are not held up.
    expect(await f.track('t', ctx(), () => Promise.resolve('other server'))).toBe('other server');
    release();
    await Promise.all([older, newer]);
    expect(newerRan).toBe(true);
  });

  it('calls that cannot be asked run side by side, and a question then is nobody’s; outside any call, only a sole client is asked', async () => {
    const f = new InFlight();
    let release!: () => void;
    const open = new Promise<void>((r) => (release = r));
    const plain = [f.track('s', ctx(), () => open), f.track('s', ctx(asker({}, 'declared nothing')), () => open)];
    await new Promise((r) => setImmediate(r));
    expect(f.askerFor('s', 'elicitation/create')).toBeUndefined();
    release();
    await Promise.all(plain);
    f.askers.set({}, asker({ roots: {} }, 'connected'));
    expect(await ask(f, 's', 'roots/list')).toBe('connected');
    expect(f.askerFor('s', 'elicitation/create')).toBeUndefined();
    // Two connected clients could answer: serve does not pick one.
    f.askers.set({}, asker({ roots: {} }, 'another'));
    expect(f.askerFor('s', 'roots/list')).toBeUndefined();
  });
});

describe('a capability the request did not declare', () => {
  const bare = (): Round => ({ name: 'tools/call t', capabilities: {}, signal: new AbortController().signal });

  it('a server that cannot go on without it fails the call with MissingCapability and is cancelled', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    let cancelled = false;
    const failed = bridge.start(bare(), (ctx) =>
      f.track('s', ctx, async () => {
        ctx.signal.addEventListener('abort', () => (cancelled = true));
        // sampling: mcp-smart has no answer the server can go on with.
        expect(f.askerFor('s', 'sampling/createMessage')).toBeUndefined();
        await new Promise((r) => setTimeout(r, 20));
        return text('unreachable');
      }),
    );
    await expect(failed).rejects.toEqual(new MissingCapability('sampling'));
    expect(cancelled).toBe(true);
    expect(bridge.open).toBe(0);
  });

  it('elicitation or roots serve declared for other clients: answered by mcp-smart, the call goes on', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    const done = await bridge.start(bare(), (ctx) =>
      f.track('s', ctx, async () => text(String(f.askerFor('s', 'elicitation/create') === undefined))),
    );
    expect(done).toEqual(text('true'));
  });

  it('anything serve never declared to the server (undeclared): MissingCapability', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    const failed = bridge.start(bare(), (ctx) =>
      f.track('s', ctx, async () => {
        expect(f.askerFor('s', 'roots/list', true)).toBeUndefined();
        await new Promise((r) => setTimeout(r, 20));
        return text('unreachable');
      }),
    );
    await expect(failed).rejects.toEqual(new MissingCapability('roots'));
  });
});

describe('SessionCalls: a retired session closes when its last call ends', () => {
  const session = () => {
    const s = { closed: 0, close: async () => void s.closed++ };
    return s;
  };

  it('idle: closed at once; busy: closed after its last call, not before', async () => {
    const calls = new SessionCalls<ReturnType<typeof session>>();
    const idle = session();
    await calls.retire(idle);
    expect(idle.closed).toBe(1);
    const busy = session();
    calls.begin(busy);
    calls.begin(busy);
    await calls.retire(busy);
    expect(calls.draining()).toEqual([busy]);
    calls.end(busy);
    expect(busy.closed).toBe(0);
    calls.end(busy);
    await Promise.resolve();
    expect(busy.closed).toBe(1);
    expect(calls.draining()).toEqual([]);
    const live = session();
    calls.begin(live);
    calls.end(live);
    expect(live.closed).toBe(0);
  });
});

describe('serve.inputTimeout', () => {
  it('is read as whole milliseconds; anything else is an issue naming the key', () => {
    expect(validateSmartConfig({ serve: { inputTimeout: 1500 } }, DEFAULT_WEIGHTS).config.serve?.inputTimeout).toBe(
      1500,
    );
    for (const bad of [0, -5, 1.5, '60s']) {
      const r = validateSmartConfig({ serve: { inputTimeout: bad } }, DEFAULT_WEIGHTS);
      expect(r.issues.map((i) => i.key)).toEqual(['serve.inputTimeout']);
    }
  });
});

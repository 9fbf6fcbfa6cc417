// A 2026-07-28 call the bridge holds between input_required rounds, on its server's ask gate (bridge.ts, in-flight.ts,
// ask-gate.ts). The stand-in server below asks through InFlight.askerFor, as runtime.ts routes a server's request:
// nothing in the request says which call it is for. Many held calls at once: each round holds only its own call's
// questions; a call whose client never comes back holds up nobody and is released; a cancelled call frees the gate.
import { describe, expect, it } from 'vitest';
import { Bridge, type HeldContext, type Round } from '../../src/serve/bridge.js';
import { InFlight } from '../../src/serve/in-flight.js';

const LIMITS = { timeoutMs: 5_000, maxRounds: 8, maxOpen: 64 };
const round = (signal = new AbortController().signal): Round => ({
  name: 'tools/call sign_up',
  capabilities: { elicitation: {} },
  signal,
});
const text = (t: string) => ({ content: [{ type: 'text', text: t }] });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

type Reply = {
  resultType?: string;
  inputRequests?: Record<string, { params: { message: string } }>;
  requestState?: string;
  content?: { text: string }[];
};

/** A server behind `f`: sign_up asks for a username, then a colour, each naming the team (as asks-client.mjs). */
const signUp =
  (f: InFlight, asked: string[] = []) =>
  (held: HeldContext, team: string) =>
    f.track('s', held, async () => {
      const got: string[] = [];
      for (const what of ['username', 'colour']) {
        await tick();
        const asker = f.askerFor('s', 'elicitation/create');
        asked.push(team);
        if (!asker) return text(`nobody was asked for team ${team}`);
        const answer = await asker.ask('elicitation/create', { message: `${what} for team ${team}?` }, held.signal);
        got.push(String((answer.content as { v: string }).v));
      }
      return text(got.join(' '));
    });

/** A client of one call: answers each question with the team it names; notes a question meant for another team. */
async function client(
  bridge: Bridge,
  run: (held: HeldContext, team: string) => Promise<Record<string, unknown>>,
  team: string,
  wrong: string[],
): Promise<string> {
  let reply = (await bridge.start(round(), (held) => run(held, team))) as Reply;
  while (reply.resultType === 'input_required') {
    const answers: Record<string, unknown> = {};
    for (const [key, req] of Object.entries(reply.inputRequests ?? {})) {
      const named = /team (\S+)\?/.exec(req.params.message)?.[1] ?? '?';
      if (named !== team) wrong.push(`call ${team} was asked for ${named}`);
      answers[key] = { action: 'accept', content: { v: named } };
    }
    await tick();
    reply = await bridge.resume(reply.requestState!, round(), answers);
  }
  return reply.content?.[0]?.text ?? JSON.stringify(reply);
}

describe('held 2026-07-28 calls on the ask gate', () => {
  it('30 calls at once, two rounds each: every round holds its own call’s question only', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    const wrong: string[] = [];
    const teams = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const results = await Promise.all(teams.map((team) => client(bridge, signUp(f), team, wrong)));
    // Questions seen by the wrong call: 0; each call got its own answers back.
    expect(wrong).toEqual([]);
    expect(results).toEqual(teams.map((team) => `${team} ${team}`));
    expect(bridge.open).toBe(0);
    expect(f.gate.waiting('s')).toBe(0);
  });

  it('a call whose client never comes back holds up nobody, and is released after timeoutMs', async () => {
    const f = new InFlight();
    const logged: string[] = [];
    const bridge = new Bridge({ ...LIMITS, timeoutMs: 1_500 }, (t) => logged.push(t));
    let abandoned: AbortSignal | undefined;
    const run = signUp(f);
    const first = (await bridge.start(round(), (held) => {
      abandoned = held.signal;
      return run(held, 'gone');
    })) as Reply;
    expect(first.resultType).toBe('input_required');
    // Another call runs meanwhile, at once, and is asked only its own questions.
    const wrong: string[] = [];
    const started = Date.now();
    expect(await client(bridge, run, 'next', wrong)).toBe('next next');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(wrong).toEqual([]);
    expect(abandoned?.aborted).toBe(false);
    // After timeoutMs the abandoned call is cancelled (its server's request fails) and nothing is left on the gate.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(abandoned?.aborted).toBe(true);
    expect(logged.join('\n')).toContain('waited 1500 ms');
    expect(bridge.open).toBe(0);
    expect(await f.track('s', { signal: new AbortController().signal }, async () => 'free')).toBe('free');
  });

  it('a retry waits while another call that may be asked runs, then goes before calls not started', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    // The server notes each question it asks (the team's name) and when b ends and c starts.
    const order: string[] = [];
    const run = signUp(f, order);
    const held = (await bridge.start(round(), (ctx) => run(ctx, 'a'))) as Reply;
    // b runs (it may be asked) and has not asked yet; c waits behind it.
    let finishB!: () => void;
    const b = bridge.start(round(), (ctx) =>
      f.track('s', ctx, async () => {
        await new Promise<void>((r) => (finishB = r));
        order.push('b ends');
        return text('b');
      }),
    );
    await tick();
    const c = bridge.start(round(), (ctx) =>
      f.track('s', ctx, async () => {
        order.push('c runs');
        return text('c');
      }),
    );
    await tick();
    const resumed = bridge.resume(held.requestState!, round(), {
      'elicitation-1': { action: 'accept', content: { v: 'a' } },
    });
    await tick();
    expect(order).toEqual(['a']);
    expect(f.gate.waiting('s')).toBe(2);
    finishB();
    const next = (await resumed) as Reply;
    // a's second question is a's, asked before c started: the resumed call went first; c runs once a is held again.
    expect(next.inputRequests?.['elicitation-2']?.params.message).toBe('colour for team a?');
    expect(order).toEqual(['a', 'b ends', 'a', 'c runs']);
    await bridge.resume(next.requestState!, round(), { 'elicitation-2': { action: 'accept', content: { v: 'a' } } });
    expect(await c).toEqual(text('c'));
    expect(await b).toEqual(text('b'));
  });

  it('a cancelled call frees the gate: a running round, and a retry still waiting for the gate', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    const forever = (ctx: HeldContext) =>
      f.track(
        's',
        ctx,
        () => new Promise<never>((_, no) => ctx.signal.addEventListener('abort', () => no(new Error('cancelled')))),
      );
    const client1 = new AbortController();
    const running = bridge.start(round(client1.signal), forever);
    await tick();
    const run = signUp(f);
    const held = bridge.start(round(), (ctx) => run(ctx, 'waits'));
    await tick();
    expect(f.gate.waiting('s')).toBe(1);
    client1.abort();
    await expect(running).rejects.toThrow('cancelled');
    const first = (await held) as Reply;
    expect(first.inputRequests?.['elicitation-1']?.params.message).toBe('username for team waits?');
    // Another call takes the gate; the held call's retry waits for it, and its client gives up.
    const client3 = new AbortController();
    const blocker = bridge.start(round(client3.signal), forever);
    await tick();
    const client2 = new AbortController();
    const retry = bridge.resume(first.requestState!, round(client2.signal), {
      'elicitation-1': { action: 'accept', content: { v: 'x' } },
    });
    await tick();
    expect(f.gate.waiting('s')).toBe(1);
    client2.abort();
    await expect(retry).rejects.toThrow();
    expect(f.gate.waiting('s')).toBe(0);
    client3.abort();
    await expect(blocker).rejects.toThrow('cancelled');
    expect(bridge.open).toBe(0);
    expect(await f.track('s', { signal: new AbortController().signal }, async () => 'free')).toBe('free');
  });

  it('several calls held and none running: a question is nobody’s (mcp-smart answers it)', async () => {
    const f = new InFlight();
    const bridge = new Bridge(LIMITS, () => undefined);
    const run = signUp(f);
    const a = (await bridge.start(round(), (ctx) => run(ctx, 'a'))) as Reply;
    expect(f.askerFor('s', 'elicitation/create')).toBeDefined();
    const b = (await bridge.start(round(), (ctx) => run(ctx, 'b'))) as Reply;
    expect(f.askerFor('s', 'elicitation/create')).toBeUndefined();
    expect([a.resultType, b.resultType]).toEqual(['input_required', 'input_required']);
    bridge.close();
  });
});

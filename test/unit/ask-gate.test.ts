// The ask gate: per server, a call that may be asked runs alone, the others side by side; first come, first served;
// a waiting call whose signal aborts leaves the queue; past the cap a call is refused naming the server. A Pass (a held
// 2026-07-28 call) leaves and enters again ahead of calls not started; closed while it waits, it gives its place back.
import { describe, expect, it } from 'vitest';
import { AskGate } from '../../src/serve/ask-gate.js';

/** A call that records when it runs and ends when `release` is called. */
function call(gate: AskGate, log: string[], name: string, mode: 'alone' | 'shared', signal?: AbortSignal) {
  let release!: () => void;
  const ended = new Promise<void>((r) => (release = r));
  const done = gate.run('s', mode, signal, async () => {
    log.push(`${name} runs`);
    await ended;
    log.push(`${name} ends`);
  });
  return { release, done };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('AskGate', () => {
  it('a call that may be asked runs alone; calls that cannot run together; order is kept', async () => {
    const gate = new AskGate();
    const log: string[] = [];
    const a = call(gate, log, 'a', 'shared');
    const b = call(gate, log, 'b', 'shared');
    const c = call(gate, log, 'c', 'alone');
    const d = call(gate, log, 'd', 'shared');
    await tick();
    expect(log).toEqual(['a runs', 'b runs']);
    expect(gate.waiting('s')).toBe(2);
    a.release();
    b.release();
    await Promise.all([a.done, b.done]);
    await tick();
    expect(log.slice(4)).toEqual(['c runs']);
    c.release();
    await c.done;
    await tick();
    expect(log.slice(6)).toEqual(['d runs']);
    d.release();
    await d.done;
    expect(gate.waiting('s')).toBe(0);
  });

  it('a waiting call whose signal aborts leaves the queue, and the next is admitted', async () => {
    const gate = new AskGate();
    const log: string[] = [];
    const a = call(gate, log, 'a', 'alone');
    const abort = new AbortController();
    const b = call(gate, log, 'b', 'alone', abort.signal);
    const c = call(gate, log, 'c', 'alone');
    await tick();
    abort.abort(new Error('the client cancelled'));
    await expect(b.done).rejects.toThrow('the client cancelled');
    a.release();
    await a.done;
    await tick();
    expect(log).toEqual(['a runs', 'a ends', 'c runs']);
    c.release();
    await c.done;
  });

  it('past the cap a call is refused at once, naming the server', async () => {
    const gate = new AskGate(2);
    const log: string[] = [];
    const calls = [0, 1, 2].map((i) => call(gate, log, `c${i}`, 'alone'));
    await expect(call(gate, log, 'late', 'alone').done).rejects.toThrow(
      /server "s" is unavailable: 2 calls are already waiting for it/,
    );
    for (const c of calls) {
      c.release();
      await c.done;
      await tick();
    }
    expect(log.filter((l) => l.endsWith('runs'))).toEqual(['c0 runs', 'c1 runs', 'c2 runs']);
  });

  it('a Pass left while its call is held lets the next call run; entering again goes before calls not started', async () => {
    const gate = new AskGate();
    const log: string[] = [];
    const held = await gate.admit('s', 'alone', undefined);
    const b = call(gate, log, 'b', 'alone');
    await tick();
    expect(log).toEqual([]);
    held.leave();
    await tick();
    expect(log).toEqual(['b runs']);
    const c = call(gate, log, 'c', 'alone');
    const back = held.enter(new AbortController().signal);
    await tick();
    expect(gate.waiting('s')).toBe(2);
    b.release();
    await back;
    expect(held.inside).toBe(true);
    expect(log).toEqual(['b runs', 'b ends']);
    held.close();
    await tick();
    expect(log.slice(2)).toEqual(['c runs']);
    c.release();
    await c.done;
    expect(gate.waiting('s')).toBe(0);
  });

  it('a Pass closed while it waits to enter again (its call ended) gives its place straight to the next call', async () => {
    const gate = new AskGate();
    const log: string[] = [];
    const held = await gate.admit('s', 'alone', undefined);
    held.leave();
    const b = call(gate, log, 'b', 'alone');
    await tick();
    const back = held.enter(new AbortController().signal);
    const c = call(gate, log, 'c', 'alone');
    await tick();
    held.close();
    b.release();
    await Promise.all([b.done, back]);
    await tick();
    expect(held.inside).toBe(false);
    expect(log).toEqual(['b runs', 'b ends', 'c runs']);
    c.release();
    await c.done;
    expect(gate.waiting('s')).toBe(0);
  });

  it('one client’s many waiting calls: past its own bound refused naming it; another client’s call goes next, not last', async () => {
    const gate = new AskGate(10, 3);
    const log: string[] = [];
    const of = (client: string, name: string) => {
      let release!: () => void;
      const ended = new Promise<void>((r) => (release = r));
      const done = gate.run(
        's',
        'alone',
        undefined,
        async () => {
          log.push(`${name} runs`);
          await ended;
        },
        client,
      );
      return { release, done };
    };
    const a = [0, 1, 2, 3].map((i) => of('a', `a${i}`));
    await tick();
    // a0 runs, a1..a3 wait: a's bound (3) is full, the gate's (10) is not.
    await expect(of('a', 'a4').done).rejects.toThrow(
      /server "s" is unavailable: this client already has 3 calls waiting for it, the limit per client/,
    );
    const b = of('b', 'b0');
    const c = [of('c', 'c0'), of('c', 'c1')];
    await tick();
    expect([gate.waiting('s', 'a'), gate.waiting('s', 'b'), gate.waiting('s', 'c')]).toEqual([3, 1, 2]);
    // In turn: a1 (first of a's waiting), b0, c0, then a2, c1, a3.
    for (const next of [a[0]!, a[1]!, b, c[0]!, a[2]!, c[1]!, a[3]!]) {
      next.release();
      await next.done;
      await tick();
    }
    expect(log).toEqual(['a0 runs', 'a1 runs', 'b0 runs', 'c0 runs', 'a2 runs', 'c1 runs', 'a3 runs']);
    expect(gate.waiting('s')).toBe(0);
  });
});

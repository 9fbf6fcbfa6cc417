// The progress line for long work: when it is drawn at all, and how often (a fake clock, no waiting).
import { describe, expect, it } from 'vitest';
import { createWorkProgress, progressWanted } from '../../src/app/services/progress.js';
import { fakeIo } from '../helpers/fake-io.js';

describe('progressWanted', () => {
  it('is on for a TTY stderr outside CI, off for --json, off in CI, forced on or off by MCP_SMART_PROGRESS', () => {
    const io = (stderrIsTTY: boolean, env: Record<string, string> = {}) => ({ stderrIsTTY, env });
    expect(progressWanted(io(true), 'table')).toBe(true);
    expect(progressWanted(io(false), 'table')).toBe(false);
    expect(progressWanted(io(true), 'json')).toBe(false);
    expect(progressWanted(io(true, { CI: 'true' }), 'table')).toBe(false);
    expect(progressWanted(io(false, { MCP_SMART_PROGRESS: '1' }), 'markdown')).toBe(true);
    expect(progressWanted(io(true, { CI: 'true', MCP_SMART_PROGRESS: '1' }), 'table')).toBe(true);
    expect(progressWanted(io(false, { MCP_SMART_PROGRESS: '1' }), 'json')).toBe(false);
    expect(progressWanted(io(true, { MCP_SMART_PROGRESS: '0' }), 'table')).toBe(false);
  });
});

describe('createWorkProgress', () => {
  it('waits out short work, then redraws at most every interval, and clears the line', () => {
    const io = fakeIo({ stderrIsTTY: true });
    let t = 1000;
    const p = createWorkProgress(io, 'table', 'Replaying', { now: () => t, delayMs: 200, intervalMs: 100 });
    p.step(1, 4000, 'cases');
    t = 1150;
    p.step(2, 4000, 'cases'); // still within the first 200 ms: nothing
    expect(io.err).toEqual([]);
    t = 1200;
    p.step(3, 4000, 'cases');
    t = 1250;
    p.step(4, 4000, 'cases'); // 50 ms after the last redraw: skipped
    t = 1300;
    p.step(2000, 4000, 'cases');
    p.done();
    expect(io.err).toEqual([
      '\r\x1b[2KReplaying 3/4,000 (0%) — cases',
      '\r\x1b[2KReplaying 2,000/4,000 (50%) — cases',
      '\r\x1b[2K',
    ]);
  });

  it('draws nothing, and clears nothing, when not wanted', () => {
    const io = fakeIo({ stderrIsTTY: false });
    let t = 0;
    const p = createWorkProgress(io, 'table', 'Tuning', { now: () => (t += 1000) });
    p.step(1, 2);
    p.done();
    expect(io.err).toEqual([]);
  });
});

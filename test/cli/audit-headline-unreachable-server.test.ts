// What the audit headline says when some servers could not be reached.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/fake-io.js';
import { fixture } from '../helpers/paths.js';

const FAILED = fixture('snapshots', 'audit-failed.json'); // clock (ok, 2 tools) + broken (error)

describe('audit headline with an unreachable server', () => {
  it('table: counts only the servers that answered and says how many failed', async () => {
    const r = await runCli(['--snapshot', FAILED, 'audit']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      'Tool context: 121 tokens for 2 tools on 1 of 2 servers (1 failed) — 0.1% of a 200,000-token window',
    );
  });

  it('markdown: the same wording', async () => {
    const r = await runCli(['--snapshot', FAILED, 'audit', '--format', 'markdown']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain(
      '**121 tokens** for 2 tools on 1 of 2 servers (1 failed): 0.1% of a 200,000-token window.',
    );
  });
});

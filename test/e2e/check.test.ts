// The CI gate end to end: the built CLI (bin/mcp-smart.js → dist) against fixture snapshots and a live fixture server.
// Needs `npx tsc -p tsconfig.json` first.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO, fixture, requireBuild } from '../helpers/paths.js';
import { sandboxEnv, spawnCli, type SpawnRun } from '../helpers/spawn-cli.js';
import { tempDir } from '../helpers/temp.js';

const BASE = fixture('snapshots', 'check-base.json');
const GROWN = fixture('snapshots', 'check-grown.json');
const SHRUNK = fixture('snapshots', 'check-shrunk.json');
const TIMEOUT_MS = 30_000;
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;

type Run = SpawnRun;

/** Runs the built CLI in `dir`; kills the whole process group after TIMEOUT_MS. */
function mcpSmart(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return spawnCli(args, {
    cwd: dir,
    env: sandboxEnv(dir, env),
    timeoutMs: TIMEOUT_MS,
  });
}

requireBuild();

beforeEach(async () => {
  dir = tempDir('mcp-smart-e2e-check-');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('check (built CLI)', () => {
  it('missing baseline → exit 2 and what to run', async () => {
    const r = await mcpSmart(['--snapshot', BASE, 'check']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('No baseline at mcp-smart.lock.json. Create one with: mcp-smart check --update');
  });

  it('a growing description → exit 1 naming the tool and delta; a shrinking one → exit 0', async () => {
    expect((await mcpSmart(['--snapshot', BASE, 'check', '--update'])).code).toBe(0);
    const grown = await mcpSmart(['--snapshot', GROWN, 'check']);
    expect(grown.code).toBe(1);
    expect(grown.stdout).toContain('files.read_file +69');
    expect(grown.stdout).toContain('+69 (+59.5%)');
    const shrunk = await mcpSmart(['--snapshot', SHRUNK, 'check']);
    expect(shrunk.code).toBe(0);
    expect(shrunk.stdout).toContain('PASS: tool tokens 807 → 776, -31 (-3.8%)');
  });

  it('budget over and under, with plan figures that add up', async () => {
    const under = await mcpSmart(['--snapshot', BASE, 'budget', '--max', '128000', '--json']);
    expect(under.code).toBe(0);
    // 620: web still fits beside the meta-tools once files and notes are deferred.
    const over = await mcpSmart(['--snapshot', BASE, 'budget', '--max', '10000', '--limit', '620', '--json']);
    expect(over.code).toBe(1);
    const doc = JSON.parse(over.stdout) as { used: number; final: number; plan: { tokensSaved: number }[] };
    expect(doc.used).toBe(807);
    expect(doc.plan.map((s) => s.tokensSaved)).toEqual([60, 73, 13, 11, -140, 175]);
    expect(doc.used - doc.plan.reduce((n, s) => n + s.tokensSaved, 0)).toBe(doc.final);
    expect(doc.final).toBe(615);
  });

  it('init --github with servers from a user-level config commits a snapshot for CI to check', async () => {
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, '.claude.json'),
      JSON.stringify({
        mcpServers: {
          tiny: {
            command: process.execPath,
            args: [fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')],
          },
        },
      }),
    );
    const init = await mcpSmart(['--no-cache', 'init', '--yes', '--github'], { HOME: home, USERPROFILE: home });
    expect(init.code).toBe(0);
    const wf = await readFile(join(dir, '.github', 'workflows', 'mcp-smart.yml'), 'utf8');
    expect(wf).toContain(
      `run: npx --yes -- mcp-smart@${VERSION} --snapshot mcp-smart.snapshot.json check --format github`,
    );
    const config = JSON.parse(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')) as Record<string, unknown>;
    expect(config.servers).toBeUndefined();
    // What CI runs: no user config there, only the committed snapshot.
    const ci = await mcpSmart(['--snapshot', 'mcp-smart.snapshot.json', 'check']);
    expect(ci.code).toBe(0);
    expect(ci.stdout).toContain('PASS');
  });

  it('init --yes with a live --stdio fixture server produces files that check then passes with', async () => {
    const server = `${JSON.stringify(process.execPath)} ${JSON.stringify(fixture('servers', 'catalog-server.mjs'))} ${JSON.stringify(fixture('servers', 'catalogs', 'tiny.json'))}`;
    const init = await mcpSmart(['--no-cache', '--stdio', server, '--name', 'tiny', 'init', '--yes', '--github']);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    const config = JSON.parse(await readFile(join(dir, 'mcp-smart.config.json'), 'utf8')) as {
      servers: Record<string, { command: string; args: string[] }>;
    };
    expect(config.servers.tiny?.command).toBe(process.execPath);
    expect(await readFile(join(dir, '.github', 'workflows', 'mcp-smart.yml'), 'utf8')).toContain(
      `npx --yes -- mcp-smart@${VERSION} --trust-project check --format github`,
    );
    const check = await mcpSmart(['--no-cache', 'check']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('PASS');
  });

  it('the only server no longer starts: exit 3, and no format reports "No tool changed"', async () => {
    // The output said "No tool changed." under NO_SERVER_ANSWERED: read as a clean comparison, though none took place.
    const up = join(dir, 'server-up');
    await writeFile(up, '');
    const config = {
      servers: {
        notes: {
          command: process.execPath,
          args: [fixture('servers', 'misbehaving', 'crash-on-start.mjs'), '--unless-file', up],
        },
      },
    };
    await writeFile(join(dir, 'mcp-smart.config.json'), JSON.stringify(config));
    const env = { MCP_SMART_TRUST_PROJECT: '1' };
    const update = await mcpSmart(['--no-cache', 'check', '--update'], env);
    expect(update.code, update.stderr).toBe(0);
    await rm(up);
    const summary = join(dir, 'summary.md');
    for (const format of ['table', 'markdown', 'github']) {
      const r = await mcpSmart(['--no-cache', 'check', '--format', format], { ...env, GITHUB_STEP_SUMMARY: summary });
      expect(r.code, `${format}: ${r.stderr}`).toBe(3);
      expect(r.stdout, format).not.toContain('No tool changed');
      if (format !== 'github')
        expect(r.stdout, format).toContain("No tool was compared: the baseline's 5 tools went unchecked.");
    }
    const step = await readFile(summary, 'utf8');
    expect(step).not.toContain('No tool changed');
    expect(step).toContain('No tool was compared');
    const json = await mcpSmart(['--no-cache', 'check', '--json'], env);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: false,
      changes: [],
      failures: [{ code: 'NO_SERVER_ANSWERED' }],
    });
  });
});

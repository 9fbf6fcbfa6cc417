// An in-memory Io for in-process CLI tests: run(argv, io) with captured stdout/stderr.
import { join } from 'node:path';
import { run } from '../../src/commands/run.js';
import type { Io } from '../../src/process/io.js';
import { tempDir } from './temp.js';

export interface FakeIo extends Io {
  out: string[];
  err: string[];
}

// One scratch home per test process: tests never read or write the real user's configs, caches or usage store.
const SCRATCH = tempDir('mcp-smart-test-home-');
const DEFAULT_ENV = {
  NO_COLOR: '1',
  HOME: SCRATCH,
  MCP_SMART_CACHE_DIR: join(SCRATCH, 'cache'),
  MCP_SMART_DATA_DIR: join(SCRATCH, 'data'),
  // Gemini CLI's own overrides for its machine-wide files, so no test reads /etc/gemini-cli.
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(SCRATCH, 'gemini-system', 'settings.json'),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(SCRATCH, 'gemini-system', 'system-defaults.json'),
  // Tests build their project configs in temporary folders: approved, as a user would with `mcp-smart trust`.
  // The trust tests (test/cli/project-trust.test.ts, test/e2e/project-trust.test.ts) set it to '' to prove the gate.
  MCP_SMART_TRUST_PROJECT: '1',
};

export function fakeIo(overrides: Partial<Io> = {}): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  // A test that brings its own env still never reads Gemini's machine-wide files under /etc.
  if (overrides.env) {
    overrides = {
      ...overrides,
      env: {
        GEMINI_CLI_SYSTEM_SETTINGS_PATH: DEFAULT_ENV.GEMINI_CLI_SYSTEM_SETTINGS_PATH,
        GEMINI_CLI_SYSTEM_DEFAULTS_PATH: DEFAULT_ENV.GEMINI_CLI_SYSTEM_DEFAULTS_PATH,
        MCP_SMART_TRUST_PROJECT: DEFAULT_ENV.MCP_SMART_TRUST_PROJECT,
        ...overrides.env,
      },
    };
  }
  return {
    out,
    err,
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    env: { ...DEFAULT_ENV },
    cwd: process.cwd(),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    platform: process.platform,
    ...overrides,
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process. */
export async function runCli(argv: string[], overrides: Partial<Io> = {}): Promise<RunResult> {
  const io = fakeIo(overrides);
  const code = await run(argv, io);
  return { code, stdout: io.out.join(''), stderr: io.err.join('') };
}

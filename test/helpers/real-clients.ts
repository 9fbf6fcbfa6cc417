// The real client CLIs (devDependencies: @anthropic-ai/claude-code, @google/gemini-cli, @openai/codex) driven
// offline for e2e tests. Each client gets its own temporary HOME and project folder and an environment that keeps
// nothing of the caller's but PATH and the locale, so no real credential or config reaches it. Every process runs
// in its own process group, which is killed on a timeout (and after the answer was read, for the long-lived ones).
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { splitCommandLine } from '../../src/core/config/shell-split.js';
import { REPO } from './paths.js';
import { tempDir } from './temp.js';

export type ClientKind = 'claude' | 'gemini' | 'codex';

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One server as the client reports it. */
export interface ClientServerStatus {
  server: string;
  connected: boolean;
  /** The client's own word for the state ("Connected", "Disabled", "Pending approval", a tools error…). */
  status: string;
  /** Only where the client reports its tools. */
  tools?: string[];
  /** The tool definitions as the client holds them (Codex app-server), where it reports them. */
  definitions?: unknown[];
}

const BINS: Record<ClientKind, string> = {
  // The package's own launcher: it finds the native binary whether or not the postinstall copied it into bin/.
  claude: join(REPO, 'node_modules', '@anthropic-ai', 'claude-code', 'cli-wrapper.cjs'),
  gemini: join(REPO, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js'),
  codex: join(REPO, 'node_modules', '@openai', 'codex', 'bin', 'codex.js'),
};

/** How each CLI is started: its package's bin script, through this node. */
function argv(kind: ClientKind, args: string[]): [string, string[]] {
  return [process.execPath, [BINS[kind], ...args]];
}

/** Runs `cmd args` in its own process group; the group is SIGKILLed after `timeoutMs` or once `stop(stdout)` holds. */
export function runGroup(
  cmd: string,
  args: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    timeoutMs: number;
    input?: string;
    stop?: (stdout: string) => boolean;
    /** The group is killed once this settles. */
    stopWhen?: Promise<unknown>;
  },
): Promise<ClientRun & { stopped: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!stopped && opts.stop?.(stdout)) {
        stopped = true;
        kill();
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(kill, opts.timeoutMs);
    void opts.stopWhen?.then(() => {
      stopped = true;
      kill();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      kill(); // servers the client started share its group
      resolve({ code, stdout, stderr, stopped });
    });
    child.stdin.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin.write(opts.input);
    else child.stdin.end();
  });
}

/** A port nothing listens on (bound, then released): a model endpoint that refuses at once, so nothing goes online. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export class RealClient {
  readonly dir: string;
  readonly home: string;
  readonly project: string;
  readonly tmp: string;
  readonly env: NodeJS.ProcessEnv;

  constructor(readonly kind: ClientKind) {
    // realpath: clients key projects by the resolved folder.
    this.dir = realpathSync(tempDir(`mcp-smart-${kind}-`));
    this.home = join(this.dir, 'home');
    this.project = join(this.dir, 'project');
    this.tmp = join(this.dir, 'tmp');
    for (const d of [this.home, this.project, this.tmp]) mkdirSync(d, { recursive: true });
    this.env = {
      PATH: process.env.PATH ?? '',
      LANG: 'C.UTF-8',
      HOME: this.home,
      USERPROFILE: this.home,
      XDG_CONFIG_HOME: join(this.home, '.config'),
      XDG_CACHE_HOME: join(this.home, '.cache'),
      XDG_DATA_HOME: join(this.home, '.local', 'share'),
      TMPDIR: this.tmp,
      NO_COLOR: '1',
      ...this.clientEnv(),
    };
    this.prepare();
  }

  private clientEnv(): Record<string, string> {
    if (this.kind === 'claude')
      return {
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
      };
    if (this.kind === 'gemini') {
      // Machine-wide settings are looked for inside this HOME, never under /etc/gemini-cli.
      const base = join(this.home, '.gemini-system');
      return {
        GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(base, 'settings.json'),
        GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(base, 'system-defaults.json'),
      };
    }
    return { CODEX_HOME: join(this.home, '.codex') };
  }

  /** Client files the tests need before the first run. */
  private prepare(): void {
    if (this.kind === 'codex') mkdirSync(join(this.home, '.codex'), { recursive: true });
    if (this.kind !== 'gemini') return;
    const dir = join(this.home, '.gemini');
    mkdirSync(dir, { recursive: true });
    // No usage statistics; the API-key auth type lets `gemini -p` start (its key is a placeholder, its model local).
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        privacy: { usageStatisticsEnabled: false },
        security: { auth: { selectedType: 'gemini-api-key' } },
      }),
    );
  }

  /**
   * Gemini CLI disables every MCP server (user-level ones too) in an untrusted folder. Trust is recorded the
   * documented way, in ~/.gemini/trustedFolders.json ("Your choice is saved in a central file
   * (~/.gemini/trustedFolders.json)" — https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/trusted-folders.md).
   */
  trustProject(): void {
    if (this.kind !== 'gemini') throw new Error('trustProject is for Gemini CLI');
    writeFileSync(
      join(this.home, '.gemini', 'trustedFolders.json'),
      JSON.stringify({ [this.project]: 'TRUST_FOLDER' }),
    );
  }

  /** Runs the client CLI with `args` in the project folder. */
  run(args: string[], timeoutMs = 90_000, extraEnv: Record<string, string> = {}): Promise<ClientRun> {
    const [cmd, full] = argv(this.kind, args);
    return runGroup(cmd, full, { cwd: this.project, env: { ...this.env, ...extraEnv }, timeoutMs });
  }

  /** Runs a printed command line (e.g. `claude mcp add …`) as the shell would split it; its first word names this client. */
  runPrinted(line: string): Promise<ClientRun> {
    const [first, ...rest] = splitCommandLine(line);
    if (first !== this.kind) throw new Error(`expected a ${this.kind} command, got: ${line}`);
    return this.run(rest);
  }

  /**
   * Runs a printed command line in a POSIX shell, as the user pastes it (its `$NAME` filled in from this client's
   * environment); the client's name is found on PATH as a small script that starts its package's bin.
   */
  runInShell(line: string): Promise<ClientRun> {
    if (!line.startsWith(`${this.kind} `)) throw new Error(`expected a ${this.kind} command, got: ${line}`);
    const bin = join(this.dir, 'bin');
    mkdirSync(bin, { recursive: true });
    const [cmd, args] = argv(this.kind, []);
    const quote = (w: string): string => `'${w.replace(/'/g, `'\\''`)}'`;
    writeFileSync(join(bin, this.kind), `#!/bin/sh\nexec ${[cmd, ...args].map(quote).join(' ')} "$@"\n`, {
      mode: 0o755,
    });
    const env = { ...this.env, PATH: `${bin}:${this.env.PATH ?? ''}` };
    return runGroup('/bin/sh', ['-c', line], { cwd: this.project, env, timeoutMs: 90_000 });
  }

  /** The client's own server list with its health check (Codex: app-server `mcpServerStatus/list`). */
  async list(): Promise<ClientServerStatus[]> {
    if (this.kind === 'codex') return this.codexStatus();
    const run = await this.run(['mcp', 'list']);
    if (run.code !== 0) throw new Error(`${this.kind} mcp list exited ${run.code}:\n${run.stdout}\n${run.stderr}`);
    return this.kind === 'claude' ? parseClaudeList(run.stdout) : parseGeminiList(run.stdout + run.stderr);
  }

  /**
   * Servers with the tools the client loaded from them, where the client reports them offline. Claude Code: the
   * `system/init` event of `claude -p --output-format stream-json` lists every tool (as mcp__<server>__<tool>) and
   * each server's status before any model request; the model endpoint is a closed local port and the API key a
   * placeholder, and the process group is killed once that first line is in. Codex: `mcpServerStatus/list`.
   * Gemini CLI: the tools it sends the model (geminiToolLists).
   */
  async toolLists(): Promise<ClientServerStatus[]> {
    if (this.kind === 'codex') return this.codexStatus();
    if (this.kind === 'gemini') return this.geminiToolLists();
    // `claude -p` sends its init event after a short wait for the servers; one still starting is "pending" there
    // (a slow start on a busy machine), so ask again, as a user would, until none is.
    let servers: ClientServerStatus[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      servers = await this.claudeInit();
      if (!servers.some((s) => s.status === 'pending')) break;
    }
    return servers;
  }

  private async claudeInit(): Promise<ClientServerStatus[]> {
    const port = await closedPort();
    const [cmd, args] = argv('claude', ['-p', '--output-format', 'stream-json', '--verbose', 'say hi']);
    const run = await runGroup(cmd, args, {
      cwd: this.project,
      env: {
        ...this.env,
        ANTHROPIC_API_KEY: 'sk-ant-placeholder-offline',
        ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
        // Claude Code's own setting: `-p` waits for its servers to connect before its init event, instead of
        // listing one that is still connecting as "pending". serve now answers initialize at once and its first
        // tools/list when the servers behind are up (or serve.firstListWait passed); this process group is killed
        // once the init line is in, so without it the list depends on how loaded the machine is.
        MCP_CONNECTION_NONBLOCKING: 'false',
      },
      timeoutMs: 90_000,
      stop: (out) => out.includes('\n'),
    });
    const line = run.stdout.split('\n')[0] ?? '';
    let init: { subtype?: string; tools?: string[]; mcp_servers?: { name: string; status: string }[] };
    try {
      init = JSON.parse(line) as typeof init;
    } catch {
      throw new Error(`claude -p printed no init event:\n${run.stdout.slice(0, 500)}\n${run.stderr.slice(0, 2000)}`);
    }
    if (init.subtype !== 'init') throw new Error(`claude's first event is not init: ${line.slice(0, 300)}`);
    return (init.mcp_servers ?? []).map((s) => {
      const prefix = `mcp__${s.name}__`;
      return {
        server: s.name,
        connected: s.status === 'connected',
        status: s.status,
        tools: (init.tools ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length)),
      };
    });
  }

  /**
   * Gemini CLI has no offline command that lists tools, so this reads the tools it sends the model: `gemini -p`
   * (non-interactive, which waits for every MCP server before the first request) talks to a local HTTP endpoint
   * standing in for the Gemini API (GOOGLE_GEMINI_BASE_URL); the first request that carries function declarations
   * is recorded and answered 400, and the process group killed. `--approval-mode yolo`, because without it a
   * non-interactive run leaves out every tool that would ask for confirmation (MCP tools among them). MCP tools are
   * named `mcp_<server>_<tool>`; each server's status comes from `gemini mcp list`.
   */
  private async geminiToolLists(): Promise<ClientServerStatus[]> {
    const servers = await this.list();
    let captured!: (decls: { name: string }[]) => void;
    const declarations = new Promise<{ name: string }[]>((r) => (captured = r));
    const model = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        let doc: { tools?: { functionDeclarations?: { name: string }[] }[] } = {};
        try {
          doc = JSON.parse(body) as typeof doc;
        } catch {
          /* not a generate request */
        }
        const decls = (doc.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
        if (decls.length > 0) captured(decls);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 400, message: 'offline test endpoint', status: 'INVALID_ARGUMENT' } }));
      });
    });
    await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
    const { port } = model.address() as { port: number };
    try {
      const [cmd, args] = argv('gemini', ['-p', 'say hi', '-m', 'gemini-2.5-flash', '--approval-mode', 'yolo']);
      const run = await runGroup(cmd, args, {
        cwd: this.project,
        env: { ...this.env, GEMINI_API_KEY: 'placeholder-offline', GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}` },
        timeoutMs: 120_000,
        stopWhen: declarations,
      });
      if (!run.stopped) throw new Error(`gemini -p sent no request with tools:\n${run.stderr.slice(-2000)}`);
    } finally {
      model.closeAllConnections();
      await new Promise<void>((r) => model.close(() => r()));
    }
    const decls = await declarations;
    return servers.map((s) => {
      const prefix = `mcp_${s.server}_`;
      const own = decls.filter((d) => d.name.startsWith(prefix));
      return { ...s, tools: own.map((d) => d.name.slice(prefix.length)), definitions: own };
    });
  }

  /**
   * Codex's app-server over stdio (JSON-RPC, one message a line; methods from `codex app-server
   * generate-json-schema`): `initialize`, the `initialized` notification, then `mcpServerStatus/list` page by page.
   */
  private async codexStatus(): Promise<ClientServerStatus[]> {
    const [cmd, args] = argv('codex', ['app-server']);
    const requests = [
      { id: 1, method: 'initialize', params: { clientInfo: { name: 'mcp-smart-tests', version: '0' } } },
      { method: 'initialized' },
    ];
    const servers: ClientServerStatus[] = [];
    let cursor: string | null = null;
    let page = 0;
    do {
      page++;
      const input = [...requests, { id: 2, method: 'mcpServerStatus/list', params: { cursor } }]
        .map((m) => JSON.stringify(m))
        .join('\n');
      const run = await runGroup(cmd, args, {
        cwd: this.project,
        env: this.env,
        timeoutMs: 120_000,
        input: `${input}\n`,
        stop: (out) => out.split('\n').some((l) => l.startsWith('{"id":2') || l.includes('"id":2,')),
      });
      const answer = run.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { id?: number; result?: CodexStatusPage; error?: unknown })
        .find((m) => m.id === 2);
      if (!answer?.result) {
        throw new Error(
          `codex app-server gave no mcpServerStatus/list answer: ${JSON.stringify(answer?.error)}\n${run.stderr.slice(-2000)}`,
        );
      }
      for (const s of answer.result.data) servers.push(codexServer(s));
      cursor = answer.result.nextCursor ?? null;
    } while (cursor && page < 20);
    return servers;
  }
}

interface CodexStatusPage {
  data: { name: string; tools: Record<string, unknown>; toolsError?: string | null; serverInfo?: unknown }[];
  nextCursor?: string | null;
}

function codexServer(s: CodexStatusPage['data'][number]): ClientServerStatus {
  const connected = !s.toolsError && s.serverInfo !== null && s.serverInfo !== undefined;
  return {
    server: s.name,
    connected,
    status: s.toolsError ?? (connected ? 'connected' : 'not started'),
    tools: Object.keys(s.tools).sort(),
    definitions: Object.keys(s.tools)
      .sort()
      .map((k) => s.tools[k]),
  };
}

/** `claude mcp list`: "name: command args - ✔ Connected" (or ✘ Failed to connect, ⏸ Pending approval …). */
export function parseClaudeList(text: string): ClientServerStatus[] {
  const out: ClientServerStatus[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\S+?): .* - (\S+)\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    out.push({ server: m[1]!, connected: m[2] === '✔' && m[3] === 'Connected', status: m[3]! });
  }
  return out;
}

/** `gemini mcp list`: "✓ name: command args (stdio) - Connected" (○ Disabled, ✗ Disconnected …). */
export function parseGeminiList(text: string): ClientServerStatus[] {
  const out: ClientServerStatus[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*\S+\s+(\S+?): .* - (\w[\w ]*?)\s*$/.exec(line);
    if (!m) continue;
    out.push({ server: m[1]!, connected: m[2] === 'Connected', status: m[2]! });
  }
  return out;
}

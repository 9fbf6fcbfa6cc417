/** `serve`'s own flags read into checked values, each at the point of the start where it was always read. */
import { resolve } from 'node:path';
import { optionalString, parseChoiceFlag, parseIntFlag } from '../app/services/flags.js';
import { SmartError } from '../process/errors.js';
import type { ServeConfig } from '../core/types.js';
import type { ServeLevel, ServeMode } from './served-view.js';
import { stateKeys, type StateKeys } from './replica/seal.js';

export const MODES: readonly ServeMode[] = ['auto', 'tools', 'meta'];
export const LEVELS: readonly ServeLevel[] = ['full', 'lossless', 'compact', 'minimal', 'names'];
export const DEFAULT_MAX = 200_000;
const DEFAULT_CALL_TIMEOUT_MS = 120_000;
/** Node's timers hold at most 2^31 - 1 ms (about 24.8 days): a longer one fires at once, so it is refused. */
const MAX_TIMER_MS = 2_147_483_647;

type Opts = Record<string, unknown>;

export interface ListenFlags {
  transportKind: 'stdio' | 'http';
  host: string;
  port: number;
  tokenEnv: string | undefined;
  /** The value of --token-env's variable (never printed). */
  token: string | undefined;
  sessions: { idleMs: number | undefined; max: number | undefined };
  /** HTTP only: the keys input_required state is sealed with. */
  keys: StateKeys | undefined;
}

/** What serve listens on over HTTP when --host / --port are not given (the spec declares the same defaults). */
const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_PORT = '0';

/** Where and how serve listens: read before anything is loaded, so a bad flag is refused at once. */
export function listenFlags(opts: Opts, env: Readonly<Record<string, string | undefined>>): ListenFlags {
  const transportKind = parseChoiceFlag('--transport', opts.transport ?? 'stdio', ['stdio', 'http'] as const);
  if (transportKind === 'stdio') refuseHttpOnly(opts);
  const host = optionalString(opts.host) ?? DEFAULT_HOST;
  const port = parseIntFlag('--port', opts.port ?? DEFAULT_PORT, { min: 0, max: 65535, example: '8080' });
  const tokenEnv = optionalString(opts.tokenEnv);
  const token = tokenEnv ? env[tokenEnv] : undefined;
  if (tokenEnv && !token) throw new SmartError('SERVE_TOKEN_MISSING', { variable: tokenEnv });
  const sessions = {
    idleMs: opts.sessionIdle
      ? parseIntFlag('--session-idle', opts.sessionIdle, { min: 1, max: MAX_TIMER_MS, example: '600000' })
      : undefined,
    max: opts.maxSessions ? parseIntFlag('--max-sessions', opts.maxSessions, { min: 1, example: '100' }) : undefined,
  };
  // Several replicas share these keys: a 2026-07-28 client's round may reach any of them (replica/).
  const keys = transportKind === 'http' ? stateKeys(optionalString(opts.stateKeyFile), env) : undefined;
  return { transportKind, host, port, tokenEnv, token, sessions, keys };
}

/**
 * Flags that only HTTP reads, given to a stdio serve: they were ignored without a word (`--port 8080` and a client
 * left waiting on a port nobody listens on; `--token-env` and `--issuer`, a protection that was never there).
 */
function refuseHttpOnly(opts: Opts): void {
  const given: [string, unknown][] = [
    ['--host', opts.host !== DEFAULT_HOST ? opts.host : undefined],
    ['--port', opts.port !== DEFAULT_PORT ? opts.port : undefined],
    ['--token-env', opts.tokenEnv],
    ['--issuer', opts.issuer],
    ['--audience', opts.audience],
    ['--scope', opts.scope],
    ['--state-key-file', opts.stateKeyFile],
    ['--session-idle', opts.sessionIdle],
    ['--max-sessions', opts.maxSessions],
  ];
  const [flag, value] = given.find(([, v]) => v !== undefined) ?? [];
  if (flag === undefined) return;
  throw new SmartError('BAD_FLAG', {
    flag,
    value: String(value),
    hint: `It is for --transport http; serve over stdio (the default) reads none of it. Add --transport http, or leave ${flag} out.`,
  });
}

/** --mode and --level, else the config's serve.mode / serve.level, else auto and lossless. */
export function modeAndLevel(opts: Opts, config: ServeConfig): { mode: ServeMode; level: ServeLevel } {
  const modeFlag = optionalString(opts.mode);
  const mode = modeFlag ? parseChoiceFlag('--mode', modeFlag, MODES) : (config.mode ?? 'auto');
  const levelFlag = optionalString(opts.level);
  const level = levelFlag ? parseChoiceFlag('--level', levelFlag, LEVELS) : (config.level ?? 'lossless');
  return { mode, level };
}

export interface ServeTimeouts {
  spawnTimeoutMs: number;
  callTimeoutMs: number;
  firstListWaitMs: number | undefined;
}

/** The limits for a server's start, a forwarded call and the first tools/list: flag, else config, else default. */
export function timeoutFlags(opts: Opts, config: ServeConfig, globalTimeoutMs: number): ServeTimeouts {
  const spawnTimeoutMs = opts.spawnTimeout
    ? parseIntFlag('--spawn-timeout', opts.spawnTimeout, { min: 1, max: MAX_TIMER_MS, example: '30000' })
    : (config.spawnTimeout ?? globalTimeoutMs);
  const callTimeoutMs = opts.callTimeout
    ? parseIntFlag('--call-timeout', opts.callTimeout, { min: 1, max: MAX_TIMER_MS, example: '120000' })
    : (config.callTimeout ?? DEFAULT_CALL_TIMEOUT_MS);
  const firstListWaitMs = opts.firstListWait
    ? parseIntFlag('--first-list-wait', opts.firstListWait, { min: 1, max: MAX_TIMER_MS, example: '2000' })
    : config.firstListWait;
  return { spawnTimeoutMs, callTimeoutMs, firstListWaitMs };
}

/** The serve options given with --print-config that the client's serve should run with too (paths made absolute). */
export function serveArgs(opts: Opts, cwd: string): string[] {
  const args: string[] = [];
  const carry = (flag: string, value: unknown): void => {
    if (typeof value === 'string') args.push(flag, value);
  };
  carry('--level', opts.level);
  carry('--max', opts.max);
  carry('--share', opts.share);
  carry('--limit', opts.limit);
  if (opts.activate === true) args.push('--activate');
  if (typeof opts.record === 'string') args.push('--record', resolve(cwd, opts.record));
  if (opts.learn === false) args.push('--no-learn');
  carry('--key', opts.key);
  carry('--spawn-timeout', opts.spawnTimeout);
  carry('--call-timeout', opts.callTimeout);
  carry('--first-list-wait', opts.firstListWait);
  carry('--otlp', opts.otlp);
  return args;
}

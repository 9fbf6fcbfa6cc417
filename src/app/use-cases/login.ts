/** The `login` and `logout` use cases: authorize remote servers behind OAuth, or forget their stored tokens. */
import { countOf } from '../../reporters/format.js';
import { SmartError } from '../../process/errors.js';
import { TokenStore } from '../../core/connect/oauth/token-store.js';
import { oauthTokenStorePath } from '../../core/paths.js';
import type { ServerDefinition, ServerSnapshot } from '../../core/types.js';
import type { AppContext } from '../services/context.js';
import { createOpener, oauthOptions } from '../services/oauth.js';
import { resolvePaths } from '../services/paths.js';
import { loadDefinitions } from '../services/definitions.js';
import { knownNames } from '../../core/config/key-path.js';

/** How long `login` waits for the browser to come back to the loopback redirect. */
export const LOGIN_WAIT_MS = 300_000;

export interface LoginResult {
  store: string;
  servers: { name: string; status: 'ok' | 'error' | 'skipped'; detail: string }[];
}

export interface LogoutResult {
  store: string;
  server?: string;
  removed: number;
}

const hasAuthorizationHeader = (d: ServerDefinition): boolean =>
  Object.keys(d.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');

function tokenStorePath(ctx: AppContext): string {
  return oauthTokenStorePath(resolvePaths(ctx.io, ctx.global.cache).pathEnv);
}

function unknownServer(name: string, all: ServerDefinition[]): SmartError {
  return new SmartError('UNKNOWN_SERVER', {
    name,
    ...knownNames(
      name,
      all.map((d) => d.name),
    ),
  });
}

function targets(ctx: AppContext, all: ServerDefinition[], name: string | undefined): ServerDefinition[] {
  if (name !== undefined) {
    const def = all.find((d) => d.name === name);
    if (!def) throw unknownServer(name, all);
    if (def.transport === 'stdio') throw new SmartError('AUTH_NOT_REMOTE', { server: name, transport: 'stdio' });
    return [def];
  }
  const wanted = ctx.global.server;
  const remote = all.filter((d) => d.enabled && d.transport !== 'stdio' && !hasAuthorizationHeader(d));
  return wanted.length > 0 ? remote.filter((d) => wanted.includes(d.name)) : remote;
}

async function connectOne(
  ctx: AppContext,
  def: ServerDefinition,
  interactive: boolean,
): Promise<ServerSnapshot | undefined> {
  const { connectServers } = await import('../../core/connect/index.js');
  const base = oauthOptions(ctx);
  const oauth = interactive
    ? { ...base, interactive: { open: createOpener(ctx, def.name), waitMs: LOGIN_WAIT_MS } }
    : { ...base, interactive: undefined };
  const [snap] = await connectServers([def], {
    timeoutMs: ctx.global.timeoutMs + (interactive ? LOGIN_WAIT_MS : 0),
    signal: ctx.io.signal,
    cache: null,
    oauth,
  });
  return snap;
}

async function forgetTokens(store: TokenStore, url: string): Promise<void> {
  const entries = await store.list();
  for (const [key, entry] of Object.entries(entries)) {
    if (entry.url !== url || !entry.tokens) continue;
    // Kept: the registration, and a scope a server asked for that this login must ask for too.
    await store.update(key, (e) => (e?.clientInformation || e?.scopeWanted ? { ...e, tokens: undefined } : undefined));
  }
}

/**
 * Logs in to `name`, or to every remote server that needs it (those already authorized are skipped), one at a
 * time: one browser tab and one loopback listener per authorization.
 */
export async function loginServers(
  ctx: AppContext,
  name: string | undefined,
  warn: (warning: string) => void,
): Promise<LoginResult> {
  const defs = await loadDefinitions(ctx.global, ctx.io);
  for (const w of defs.warnings) warn(w);
  const chosen = targets(ctx, defs.servers, name);
  const store = tokenStorePath(ctx);
  const result: LoginResult = { store, servers: [] };
  for (const def of chosen) {
    if (hasAuthorizationHeader(def)) {
      result.servers.push({ name: def.name, status: 'skipped', detail: 'sends its own Authorization header' });
      continue;
    }
    if (name === undefined) {
      const probe = await connectOne(ctx, def, false);
      if (probe?.status === 'ok') {
        result.servers.push({ name: def.name, status: 'skipped', detail: 'already authorized (or needs no login)' });
        continue;
      }
      if (probe?.errorCode !== 'AUTH_REQUIRED') {
        result.servers.push({ name: def.name, status: 'error', detail: probe?.error ?? 'failed' });
        continue;
      }
    }
    // A named login is a fresh one (another account, new scopes): forget the tokens, keep the registration.
    if (name !== undefined && def.url) await forgetTokens(new TokenStore(store), def.url);
    const snap = await connectOne(ctx, def, true);
    result.servers.push(
      snap?.status === 'ok'
        ? { name: def.name, status: 'ok', detail: `logged in; ${countOf(snap.tools.length, 'tool')}` }
        : { name: def.name, status: 'error', detail: snap?.error ?? 'failed' },
    );
  }
  return result;
}

/** Forgets the stored tokens (and client registration) of `name`, or of every server. */
export async function logoutServers(ctx: AppContext, name: string | undefined): Promise<LogoutResult> {
  const file = tokenStorePath(ctx);
  const store = new TokenStore(file);
  let removed: number;
  if (name === undefined) {
    removed = await store.remove(() => true);
  } else {
    const defs = await loadDefinitions(ctx.global, ctx.io);
    const def = defs.servers.find((d) => d.name === name);
    if (!def) throw unknownServer(name, defs.servers);
    if (def.transport === 'stdio' || !def.url)
      throw new SmartError('AUTH_NOT_REMOTE', { server: name, transport: def.transport, command: 'logout' });
    const url = def.url;
    removed = await store.remove((e) => e.url === url);
  }
  return { store: file, ...(name !== undefined ? { server: name } : {}), removed };
}

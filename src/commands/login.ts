/** `login [server]`: authorize remote servers behind OAuth in a browser (loopback redirect) and store the tokens. */
import { SmartError } from '../errors.js';
import { TokenStore } from '../core/connect/oauth-token-store.js';
import { oauthTokenStorePath } from '../core/paths.js';
import { renderJson } from '../reporters/json.js';
import type { ServerDefinition, ServerSnapshot } from '../types.js';
import type { CommandContext, CommandOutcome } from '../app/context.js';
import { loadDefinitions, pathEnvOf } from './load.js';
import { createOpener, oauthOptions } from '../app/oauth.js';

/** How long `login` waits for the browser to come back to the loopback redirect. */
export const LOGIN_WAIT_MS = 300_000;

export interface LoginResult {
  store: string;
  servers: { name: string; status: 'ok' | 'error' | 'skipped'; detail: string }[];
}

const hasAuthorizationHeader = (d: ServerDefinition): boolean =>
  Object.keys(d.headers ?? {}).some((h) => h.toLowerCase() === 'authorization');

function targets(ctx: CommandContext, all: ServerDefinition[], name: string | undefined): ServerDefinition[] {
  if (name !== undefined) {
    const def = all.find((d) => d.name === name);
    if (!def) {
      const known = [...new Set(all.map((d) => d.name))].sort().join(', ') || '(none)';
      throw new SmartError('UNKNOWN_SERVER', { name, known });
    }
    if (def.transport === 'stdio') throw new SmartError('AUTH_NOT_REMOTE', { server: name, transport: 'stdio' });
    return [def];
  }
  const wanted = ctx.global.server;
  const remote = all.filter((d) => d.enabled && d.transport !== 'stdio' && !hasAuthorizationHeader(d));
  return wanted.length > 0 ? remote.filter((d) => wanted.includes(d.name)) : remote;
}

async function connectOne(
  ctx: CommandContext,
  def: ServerDefinition,
  interactive: boolean,
): Promise<ServerSnapshot | undefined> {
  const { connectServers } = await import('../core/connect/index.js');
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

async function forgetTokens(ctx: CommandContext, url: string): Promise<void> {
  const store = new TokenStore(oauthTokenStorePath(pathEnvOf(ctx)));
  const entries = await store.list();
  for (const [key, entry] of Object.entries(entries)) {
    if (entry.url !== url || !entry.tokens) continue;
    // Kept: the registration, and a scope a server asked for that this login must ask for too.
    await store.update(key, (e) => (e?.clientInformation || e?.scopeWanted ? { ...e, tokens: undefined } : undefined));
  }
}

export async function runLoginCommand(
  ctx: CommandContext,
  args: string[],
  _opts: Record<string, unknown>,
): Promise<CommandOutcome<LoginResult>> {
  const { io } = ctx;
  const defs = await loadDefinitions(ctx);
  for (const w of defs.warnings) io.stderr(`warning: ${w}\n`);
  const name = args[0];
  const chosen = targets(ctx, defs.servers, name);
  const store = oauthTokenStorePath(pathEnvOf(ctx));
  const result: LoginResult = { store, servers: [] };
  if (chosen.length === 0)
    io.stderr('No remote servers to log in to (stdio servers and servers with an Authorization header need none).\n');
  // One at a time: one browser tab and one loopback listener per authorization.
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
    if (name !== undefined && def.url) await forgetTokens(ctx, def.url);
    const snap = await connectOne(ctx, def, true);
    result.servers.push(
      snap?.status === 'ok'
        ? { name: def.name, status: 'ok', detail: `logged in; ${snap.tools.length} tools` }
        : { name: def.name, status: 'error', detail: snap?.error ?? 'failed' },
    );
  }
  if (ctx.global.format === 'json') io.stdout(renderJson('login', result));
  else {
    for (const s of result.servers) {
      const mark = s.status === 'ok' ? ctx.chalk.green('ok  ') : s.status === 'error' ? ctx.chalk.red('FAIL') : 'skip';
      io.stdout(`${mark} ${s.name}  ${s.detail}\n`);
    }
    if (result.servers.some((s) => s.status === 'ok'))
      io.stdout(`Tokens are stored in ${store} (readable by you only).\n`);
  }
  return { result, exitCode: result.servers.some((s) => s.status === 'error') ? 3 : 0 };
}

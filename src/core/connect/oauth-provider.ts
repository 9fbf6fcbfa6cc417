/**
 * mcp-smart's OAuthClientProvider for the SDK's Streamable HTTP and SSE transports. The SDK does the protocol
 * (discovery, registration, PKCE, resource indicator, scope selection, token endpoint auth, refresh); this
 * file keeps the state: tokens in the token store, the rest in memory, and a browser only when allowed.
 *
 * A long-running process keeps one provider per server: on every 401 the transport asks it again, so expired
 * access tokens are refreshed without a restart.
 */
import { randomBytes } from 'node:crypto';
import {
  auth,
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  OAuthError,
  OAuthErrorCode,
} from '@modelcontextprotocol/client';
import type {
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { SmartError } from '../../errors.js';
import type { OAuthClientSettings, ServerDefinition } from '../../types.js';
import { startLoopbackListener, type LoopbackListener } from './oauth-loopback.js';
import { DYNAMIC_CLIENT, TokenStore, tokenStoreKey, type TokenStoreEntry } from './oauth-token-store.js';

/** How many browser authorizations one server may ask for in one run (step-up included). */
export const MAX_AUTHORIZATIONS = 3;

export interface OAuthInteractive {
  /** Shows the authorization URL to the user (spawns the opener, or prints it). */
  open: (url: URL, server: string) => Promise<void>;
  /** How long to wait for the redirect. */
  waitMs: number;
}

export interface OAuthOptions {
  /** The token store file (see core/paths oauthTokenStorePath). */
  storeFile: string;
  /** Present only when the user asked for authorization (login, or an explicit --auth-open). */
  interactive?: OAuthInteractive;
  /** Client ID metadata document URL for servers without a configured one. */
  clientMetadataUrl?: string;
  signal?: AbortSignal;
}

const CLIENT_NAME = 'mcp-smart';
/** Stands in for the redirect URI when no listener runs (nothing is ever sent to it). */
const IDLE_REDIRECT = 'http://127.0.0.1/callback';

function portOf(info: OAuthClientInformationMixed | undefined): number | undefined {
  const uri = info && 'redirect_uris' in info ? info.redirect_uris[0] : undefined;
  if (!uri) return undefined;
  try {
    const u = new URL(uri);
    return u.hostname === '127.0.0.1' && u.port ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}

export class SmartOAuthProvider implements OAuthClientProvider {
  private readonly store: TokenStore;
  private readonly key: string;
  private readonly settings: OAuthClientSettings;
  private listener?: LoopbackListener;
  private redirect = IDLE_REDIRECT;
  private verifier?: string;
  private pendingState?: string;
  private discovery?: OAuthDiscoveryState;
  private entry?: TokenStoreEntry;
  /** The configured client, stamped with its issuer once the SDK binds it (memory only: it holds the secret). */
  private configuredClient?: OAuthClientInformationMixed;
  private authorizations = 0;
  private readonly grantedScopes = new Set<string>();
  private fresh = false;
  private hadTokens = false;
  /** The issuer a server's authorization moved to, away from the one the stored credentials are bound to. */
  private movedTo?: string;
  /** Set while a browser authorization's code is exchanged: the tokens it saves start a new login. */
  private exchanging = false;
  /** The scope a 403 insufficient_scope asked for, until a token covering it arrives. */
  private stepUpScope?: string;
  /** The store's version `entry` was read at: another process (a login, a refresh) may have changed it since. */
  private loadedVersion = 0;
  /** Refresh requests by refresh token: parallel 401s share one refresh (servers rotate refresh tokens). */
  private readonly refreshing = new Map<string, Promise<Response>>();
  private readonly seen = new Set<string>();

  constructor(
    private readonly def: ServerDefinition & { url: string },
    private readonly opts: OAuthOptions,
  ) {
    this.store = new TokenStore(opts.storeFile);
    this.settings = def.oauth ?? {};
    this.key = tokenStoreKey(def.url, this.settings.clientId ?? DYNAMIC_CLIENT);
    if (this.settings.clientId) {
      this.configuredClient = {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
      };
      this.remember(this.configuredClient);
    }
  }

  /** Loads the stored entry and, when authorization is allowed, starts the loopback listener. */
  async prepare(): Promise<void> {
    this.loadedVersion = await this.store.version();
    this.entry = await this.store.read(this.key);
    this.hadTokens = this.entry?.tokens !== undefined;
    this.remember(this.entry?.tokens);
    this.remember(this.entry?.clientInformation);
    for (const info of Object.values(this.entry?.registrations ?? {})) this.remember(info);
    if (this.opts.interactive) {
      this.listener = await startLoopbackListener(portOf(this.entry?.clientInformation));
      this.redirect = this.listener.redirectUrl;
    } else {
      const registered = this.entry?.clientInformation;
      if (registered && 'redirect_uris' in registered && registered.redirect_uris[0])
        this.redirect = registered.redirect_uris[0];
    }
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
  }

  /**
   * The fetch the transports use (and hand to the SDK's auth()): a refresh-token grant already sent with the
   * same refresh token is answered from that one response, so concurrent 401s (parallel list requests, or a
   * long-running process) do not spend a rotating refresh token twice and lose the session.
   */
  readonly fetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const body = init?.body;
    if (init?.method === 'POST' && body instanceof URLSearchParams && body.get('grant_type') === 'refresh_token') {
      const key = body.get('refresh_token') ?? '';
      let pending = this.refreshing.get(key);
      if (!pending) {
        pending = fetch(url, init);
        this.refreshing.set(key, pending);
      }
      return (await pending).clone();
    }
    const res = await fetch(url, init);
    if (res.status === 403) await this.noteStepUp(res.headers.get('www-authenticate'));
    return res;
  };

  /**
   * A 403 insufficient_scope names the scope wanted; a refresh cannot widen scope, so the next auth() must not
   * refresh. Without a browser the scope is also noted in the store, for the `mcp-smart login` the error asks for.
   */
  private async noteStepUp(challenge: string | null): Promise<void> {
    if (!challenge || !/error="?insufficient_scope/.test(challenge)) return;
    const scope = /scope="([^"]*)"/.exec(challenge)?.[1];
    if (!scope) return;
    this.stepUpScope = scope;
    if (this.opts.interactive || this.covers(scope) || this.entry?.scopeWanted === scope) return;
    try {
      await this.write((e) => ({ ...e, scopeWanted: scope }));
    } catch {
      // Only a hint for the next login; the request's own failure is what the caller reports.
    }
  }

  private covers(scope: string): boolean {
    const granted = new Set([...this.grantedScopes, ...(this.entry?.tokens?.scope?.split(' ') ?? [])]);
    return scope.split(' ').every((s) => s === '' || granted.has(s));
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl ?? this.opts.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_NAME,
      // A command-line program on the user's machine with a loopback redirect (RFC 8252), said outright rather than
      // left to the SDK's guess from the redirect URI: sent when mcp-smart registers itself (DCR).
      application_type: 'native',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...(this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {}),
    };
  }

  state(): string {
    this.pendingState = randomBytes(24).toString('base64url');
    return this.pendingState;
  }

  /**
   * The client registered with the authorization server the SDK resolved (`ctx.issuer`): registrations are kept per
   * issuer, and each carries the SDK's issuer stamp, so a client registered with one authorization server is never
   * presented to another (SEP-2352) — when the server moves to another issuer, mcp-smart registers again there.
   */
  clientInformation(ctx?: OAuthClientInformationContext): OAuthClientInformationMixed | undefined {
    if (this.configuredClient) return this.configuredClient;
    const byIssuer = ctx?.issuer ? this.entry?.registrations?.[ctx.issuer] : undefined;
    const stored = byIssuer ?? this.entry?.clientInformation;
    const stamp = stored && 'issuer' in stored && typeof stored.issuer === 'string' ? stored.issuer : undefined;
    // The SDK sets a registration stamped with another issuer aside and registers again with this one (no browser
    // needed for that); the tokens are bound to the old issuer too, so the login this then needs says why.
    if (ctx?.issuer !== undefined && stamp !== undefined && !sameIssuer(stamp, ctx.issuer)) this.movedTo = ctx.issuer;
    // Without a browser nothing new may be registered: a first registration needs `mcp-smart login`.
    if (!stored && !this.opts.interactive) throw this.loginNeeded();
    return stored;
  }

  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.configuredClient) {
      this.configuredClient = info;
      return;
    }
    this.remember(info);
    const issuer = ('issuer' in info && typeof info.issuer === 'string' ? info.issuer : undefined) ?? ctx?.issuer;
    await this.write((e) => ({
      ...e,
      clientInformation: info,
      ...(issuer ? { registrations: { ...e.registrations, [issuer]: info } } : {}),
    }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A long-running process picks up tokens another mcp-smart process stored (a new login, a refresh).
    const version = await this.store.version();
    if (version !== this.loadedVersion) {
      this.loadedVersion = version;
      const fresh = await this.store.read(this.key);
      if (fresh) {
        this.entry = fresh;
        this.remember(fresh.tokens);
      }
    }
    const tokens = this.entry?.tokens;
    // Step-up: without the refresh token, auth() starts a new authorization for the wider scope.
    if (tokens && this.stepUpScope && !this.covers(this.stepUpScope)) {
      const { refresh_token: _unused, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.remember(tokens);
    if (tokens.scope) for (const s of tokens.scope.split(' ')) this.grantedScopes.add(s);
    if (this.stepUpScope && this.covers(this.stepUpScope)) this.stepUpScope = undefined;
    // A code exchange is a new login (maybe another account): a new id, so no cached tool list carries over.
    const login = this.exchanging ? randomBytes(16).toString('hex') : undefined;
    await this.write((e) => ({ ...e, tokens, ...(login ? { login } : {}) }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const interactive = this.opts.interactive;
    if (!interactive || !this.listener) throw this.loginNeeded();
    // A scope a server asked for when no browser could be opened (see noteStepUp) is asked for now as well.
    const noted = this.entry?.scopeWanted?.split(' ').filter(Boolean) ?? [];
    const asked = authorizationUrl.searchParams.get('scope')?.split(' ').filter(Boolean) ?? [];
    const wanted = [...new Set([...asked, ...noted])];
    const scope = wanted.join(' ');
    if (noted.length > 0) authorizationUrl.searchParams.set('scope', scope);
    // The server asks again for scopes it already granted in this run: another round would loop.
    if (this.authorizations > 0 && wanted.every((s) => this.grantedScopes.has(s)))
      throw new SmartError('AUTH_FAILED', {
        reason: `${this.def.name} still refuses access with the scopes it granted${scope ? ` (${scope})` : ''}; not asking again`,
      });
    if (this.authorizations >= MAX_AUTHORIZATIONS)
      throw new SmartError('AUTH_FAILED', {
        reason: `${this.def.name} asked for authorization ${MAX_AUTHORIZATIONS} times in one run; giving up`,
      });
    this.authorizations++;
    const state = this.pendingState ?? authorizationUrl.searchParams.get('state') ?? '';
    const code = this.listener.waitForCode(state, {
      timeoutMs: interactive.waitMs,
      signal: this.opts.signal,
      server: this.def.name,
    });
    code.catch(() => undefined); // observed below; an opener failure must not leave it unhandled
    await interactive.open(authorizationUrl, this.def.name);
    const authorizationCode = await code;
    this.seen.add(authorizationCode);
    // Exchange here (discovery is cached in memory): the transport then reports UnauthorizedError and the
    // session connects again with the new tokens.
    this.exchanging = true;
    // The callback's iss goes with the code: the SDK checks it against the issuer it discovered (RFC 9207).
    const iss = this.listener.issuer();
    const result = await auth(this, { serverUrl: this.def.url, authorizationCode, ...(iss && { iss }) }).finally(
      () => (this.exchanging = false),
    );
    if (result !== 'AUTHORIZED') throw new SmartError('AUTH_FAILED', { reason: 'the code exchange did not complete' });
    for (const s of wanted) this.grantedScopes.add(s);
    if (noted.length > 0) await this.write(({ scopeWanted: _asked, ...e }) => e);
    this.fresh = true;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.seen.add(codeVerifier);
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new SmartError('AUTH_FAILED', { reason: 'no authorization in progress' });
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.discovery = undefined;
    if (scope === 'client' || scope === 'all') {
      if (this.configuredClient && this.settings.clientId)
        this.configuredClient = { client_id: this.settings.clientId, client_secret: this.settings.clientSecret };
    }
    if (scope === 'tokens') {
      // Refused tokens may already be replaced in the store by another process: use those, do not delete them.
      const stored = (await this.store.read(this.key))?.tokens;
      const used = this.entry?.tokens;
      if (stored && used && stored.access_token !== used.access_token) {
        this.entry = {
          ...(this.entry ?? { url: this.def.url, client: this.settings.clientId ?? DYNAMIC_CLIENT }),
          tokens: stored,
        };
        this.remember(stored);
        return;
      }
    }
    if (scope === 'tokens' || scope === 'client' || scope === 'all') {
      const dropClient = scope !== 'tokens';
      await this.write((e) => ({
        ...e,
        tokens: undefined,
        ...(dropClient ? { clientInformation: undefined, registrations: undefined } : {}),
      }));
    }
  }

  // RFC 8414 §3.3 (the metadata's issuer is the URL it was fetched for) is checked by the SDK v2 during discovery:
  // a mismatch never reaches here (test/e2e/oauth-untrusted-endpoint.test.ts).
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  /** True once after an interactive authorization finished: the caller should connect again. */
  takeFreshAuthorization(): boolean {
    const f = this.fresh;
    this.fresh = false;
    return f;
  }

  /** Every credential this provider has held in this run, for redaction of error text. */
  secrets(): string[] {
    return [...this.seen].filter((v) => v.length >= 4);
  }

  private remember(x: OAuthTokens | OAuthClientInformationMixed | undefined): void {
    if (!x) return;
    for (const v of [
      'access_token' in x ? x.access_token : undefined,
      'refresh_token' in x ? x.refresh_token : undefined,
      'id_token' in x ? x.id_token : undefined,
      'client_secret' in x ? x.client_secret : undefined,
      'registration_access_token' in x ? x.registration_access_token : undefined,
    ])
      if (typeof v === 'string' && v) this.seen.add(v);
  }

  private loginNeeded(): SmartError {
    const d = this.discovery;
    const noMetadata = d !== undefined && !d.resourceMetadata && !d.authorizationServerMetadata;
    const why = this.movedTo
      ? `its authorization server changed to ${this.movedTo}`
      : this.stepUpScope
        ? `the server asks for more scope: ${this.stepUpScope}`
        : this.hadTokens
          ? 'the stored tokens were refused and could not be refreshed'
          : noMetadata
            ? 'HTTP 401 and no OAuth metadata published; if it takes an API key, put it in "headers"'
            : 'no stored tokens';
    return new SmartError('AUTH_REQUIRED', { server: this.def.name, why });
  }

  private async write(change: (e: TokenStoreEntry) => TokenStoreEntry): Promise<void> {
    const base: TokenStoreEntry = this.entry ?? { url: this.def.url, client: this.settings.clientId ?? DYNAMIC_CLIENT };
    const next = change(base);
    this.entry = next;
    await this.store.update(this.key, () =>
      next.tokens || next.clientInformation || next.scopeWanted ? next : undefined,
    );
    this.loadedVersion = await this.store.version();
  }
}

/** Issuer identity as the SDK compares it (SEP-2352): equal, or equal but for one trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/** An OAuth error the SDK threw (an authorization server's answer) as a catalogued failure, else undefined. */
export function oauthFailure(e: unknown, def: ServerDefinition): SmartError | undefined {
  if (e instanceof OAuthError && e.code === OAuthErrorCode.InvalidGrant)
    return new SmartError(
      'AUTH_REQUIRED',
      { server: def.name, why: 'the authorization server refused the stored grant' },
      { cause: e },
    );
  if (e instanceof OAuthError)
    return new SmartError('AUTH_FAILED', { reason: `${e.code}: ${e.message.slice(0, 300)}` }, { cause: e });
  // The mix-up defences of 2026-07-28 (RFC 9207 `iss`, RFC 8414 §3.3 metadata issuer, SEP-2352 credential binding).
  if (e instanceof IssuerMismatchError || e instanceof AuthorizationServerMismatchError)
    return new SmartError('AUTH_FAILED', { reason: e.message.slice(0, 300) }, { cause: e });
  return undefined;
}

/** A provider for a remote server, unless the user already sends an Authorization header (CI, API keys). */
export async function createOAuthProvider(
  def: ServerDefinition,
  opts: OAuthOptions | undefined,
): Promise<SmartOAuthProvider | undefined> {
  if (!opts || !def.url || def.transport === 'stdio') return undefined;
  if (Object.keys(def.headers ?? {}).some((h) => h.toLowerCase() === 'authorization')) return undefined;
  const provider = new SmartOAuthProvider({ ...def, url: def.url }, opts);
  await provider.prepare();
  return provider;
}

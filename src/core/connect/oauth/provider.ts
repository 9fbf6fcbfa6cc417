/**
 * mcp-smart's OAuthClientProvider for the SDK's Streamable HTTP and SSE transports. The SDK does the protocol
 * (discovery, registration, PKCE, resource indicator, scope selection, token endpoint auth, refresh); this
 * file keeps the state: tokens in the token store, the rest in memory, and a browser only when allowed.
 *
 * A long-running process keeps one provider per server: on every 401 the transport asks it again, so expired
 * access tokens are refreshed without a restart.
 */
import { randomBytes } from 'node:crypto';
import { auth } from '@modelcontextprotocol/client';
import type {
  OAuthClientInformationContext,
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  OAuthTokens,
} from '@modelcontextprotocol/client';
import { SmartError } from '../../../process/errors.js';
import type { OAuthClientSettings, ServerDefinition } from '../../types.js';
import { SeenCredentials } from './credentials.js';
import { StoredEntry } from './entry.js';
import { authorizationRefused, loginNeeded } from './failure.js';
import { codeFromBrowser, startLoopbackListener, type LoopbackListener } from './loopback.js';
import { sharedRefreshFetch } from './refresh.js';
import {
  clientMetadataFor,
  registeredPort,
  registeredRedirect,
  registrationFor,
  withRegistration,
} from './registration.js';
import { insufficientScope, ScopeTracker, wantedScopes } from './scope.js';
import { DYNAMIC_CLIENT, tokenStoreKey, type TokenStoreEntry } from './token-store.js';

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

/** Stands in for the redirect URI when no listener runs (nothing is ever sent to it). */
const IDLE_REDIRECT = 'http://127.0.0.1/callback';

export class SmartOAuthProvider implements OAuthClientProvider {
  private readonly stored: StoredEntry;
  private readonly settings: OAuthClientSettings;
  private listener?: LoopbackListener;
  private redirect = IDLE_REDIRECT;
  private verifier?: string;
  private pendingState?: string;
  private discovery?: OAuthDiscoveryState;
  /** The configured client, stamped with its issuer once the SDK binds it (memory only: it holds the secret). */
  private configuredClient?: OAuthClientInformationMixed;
  private authorizations = 0;
  private readonly scopes = new ScopeTracker();
  private fresh = false;
  private hadTokens = false;
  /** The issuer a server's authorization moved to, away from the one the stored credentials are bound to. */
  private movedTo?: string;
  /** Set while a browser authorization's code is exchanged: the tokens it saves start a new login. */
  private exchanging = false;
  private readonly seen = new SeenCredentials();

  constructor(
    private readonly def: ServerDefinition & { url: string },
    private readonly opts: OAuthOptions,
  ) {
    this.settings = def.oauth ?? {};
    const client = this.settings.clientId ?? DYNAMIC_CLIENT;
    this.stored = new StoredEntry(opts.storeFile, tokenStoreKey(def.url, client), () => ({ url: def.url, client }));
    if (this.settings.clientId) {
      this.configuredClient = {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
      };
      this.seen.remember(this.configuredClient);
    }
  }

  /** Loads the stored entry and, when authorization is allowed, starts the loopback listener. */
  async prepare(): Promise<void> {
    await this.stored.load();
    this.hadTokens = this.entry?.tokens !== undefined;
    this.seen.remember(this.entry?.tokens);
    this.seen.remember(this.entry?.clientInformation);
    for (const info of Object.values(this.entry?.registrations ?? {})) this.seen.remember(info);
    if (this.opts.interactive) {
      this.listener = await startLoopbackListener(registeredPort(this.entry?.clientInformation));
      this.redirect = this.listener.redirectUrl;
    } else {
      this.redirect = registeredRedirect(this.entry?.clientInformation) ?? this.redirect;
    }
  }

  async close(): Promise<void> {
    await this.listener?.close();
    this.listener = undefined;
  }

  /** The fetch the transports use (and hand to the SDK's auth()): refresh grants shared, 403s read for step-up. */
  readonly fetch = sharedRefreshFetch((challenge) => this.noteStepUp(challenge));

  /**
   * A 403 insufficient_scope names the scope wanted; a refresh cannot widen scope, so the next auth() must not
   * refresh. Without a browser the scope is also noted in the store, for the `mcp-smart login` the error asks for.
   */
  private async noteStepUp(challenge: string | null): Promise<void> {
    const scope = insufficientScope(challenge);
    if (!scope) return;
    this.scopes.stepUp = scope;
    if (this.opts.interactive || this.covers(scope) || this.entry?.scopeWanted === scope) return;
    try {
      await this.write((e) => ({ ...e, scopeWanted: scope }));
    } catch {
      // Only a hint for the next login; the request's own failure is what the caller reports.
    }
  }

  private covers(scope: string): boolean {
    return this.scopes.covers(scope, this.entry?.tokens?.scope);
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl ?? this.opts.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return clientMetadataFor(this.redirect, this.settings.scopes);
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
    const { stored, movedTo } = registrationFor(this.entry, ctx?.issuer);
    if (movedTo !== undefined) this.movedTo = movedTo;
    // Without a browser nothing new may be registered: a first registration needs `mcp-smart login`.
    if (!stored && !this.opts.interactive) throw this.loginNeeded();
    return stored;
  }

  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext): Promise<void> {
    if (this.configuredClient) {
      this.configuredClient = info;
      return;
    }
    this.seen.remember(info);
    await this.write((e) => withRegistration(e, info, ctx?.issuer));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A long-running process picks up tokens another mcp-smart process stored (a new login, a refresh).
    this.seen.remember((await this.stored.reloadIfChanged())?.tokens);
    const tokens = this.entry?.tokens;
    // Step-up: without the refresh token, auth() starts a new authorization for the wider scope.
    if (tokens && this.scopes.needsStepUp(tokens.scope)) {
      const { refresh_token: _unused, ...rest } = tokens;
      return rest;
    }
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.seen.remember(tokens);
    if (tokens.scope) this.scopes.grant(tokens.scope.split(' '));
    if (this.scopes.stepUp && this.covers(this.scopes.stepUp)) this.scopes.stepUp = undefined;
    // A code exchange is a new login (maybe another account): a new id, so no cached tool list carries over.
    const login = this.exchanging ? randomBytes(16).toString('hex') : undefined;
    await this.write((e) => ({ ...e, tokens, ...(login ? { login } : {}) }));
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const interactive = this.opts.interactive;
    if (!interactive || !this.listener) throw this.loginNeeded();
    // A scope a server asked for when no browser could be opened (see noteStepUp) is asked for now as well.
    const { wanted, noted } = wantedScopes(authorizationUrl, this.entry?.scopeWanted);
    const scope = wanted.join(' ');
    if (noted.length > 0) authorizationUrl.searchParams.set('scope', scope);
    const refused = authorizationRefused(this.def.name, this.authorizations, scope, this.scopes.allGranted(wanted));
    if (refused) throw refused;
    this.authorizations++;
    const state = this.pendingState ?? authorizationUrl.searchParams.get('state') ?? '';
    const authorizationCode = await codeFromBrowser(this.listener, authorizationUrl, {
      state,
      open: interactive.open,
      timeoutMs: interactive.waitMs,
      signal: this.opts.signal,
      server: this.def.name,
    });
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
    this.scopes.grant(wanted);
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
      const newer = await this.stored.takeNewerTokens();
      if (newer) return this.seen.remember(newer);
    }
    if (scope === 'tokens' || scope === 'client' || scope === 'all') await this.stored.forget(scope !== 'tokens');
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
    return this.seen.list();
  }

  private loginNeeded(): SmartError {
    return loginNeeded(this.def.name, {
      movedTo: this.movedTo,
      stepUpScope: this.scopes.stepUp,
      hadTokens: this.hadTokens,
      discovery: this.discovery,
    });
  }

  private get entry(): TokenStoreEntry | undefined {
    return this.stored.current;
  }

  private write(change: (e: TokenStoreEntry) => TokenStoreEntry): Promise<void> {
    return this.stored.write(change);
  }
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

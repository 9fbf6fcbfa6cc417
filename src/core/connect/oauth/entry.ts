/**
 * An OAuth provider's copy of its token store entry, kept in step with the store: other mcp-smart processes (a
 * login, a refresh in a long-running serve) may change the entry at any time, and the store's version says when.
 */
import type { OAuthTokens } from '@modelcontextprotocol/client';
import { TokenStore, type TokenStoreEntry } from './token-store.js';

export class StoredEntry {
  /** The entry as last read or written (undefined: none stored). */
  current?: TokenStoreEntry;
  private readonly store: TokenStore;
  /** The store's version `current` was read at. */
  private loadedVersion = 0;

  constructor(
    storeFile: string,
    private readonly key: string,
    /** The entry a first write starts from. */
    private readonly blank: () => TokenStoreEntry,
  ) {
    this.store = new TokenStore(storeFile);
  }

  async load(): Promise<TokenStoreEntry | undefined> {
    this.loadedVersion = await this.store.version();
    this.current = await this.store.read(this.key);
    return this.current;
  }

  /** The entry another process stored since it was read, taken as current; undefined when nothing changed. */
  async reloadIfChanged(): Promise<TokenStoreEntry | undefined> {
    const version = await this.store.version();
    if (version === this.loadedVersion) return undefined;
    this.loadedVersion = version;
    const fresh = await this.store.read(this.key);
    if (fresh) this.current = fresh;
    return fresh;
  }

  /**
   * Refused tokens may already be replaced in the store by another process: those tokens, taken as current (not
   * written: they are stored); undefined when the store holds the refused ones or none.
   */
  async takeNewerTokens(): Promise<OAuthTokens | undefined> {
    const stored = (await this.store.read(this.key))?.tokens;
    const used = this.current?.tokens;
    if (!stored || !used || stored.access_token === used.access_token) return undefined;
    this.current = { ...(this.current ?? this.blank()), tokens: stored };
    return stored;
  }

  /** Drops the tokens and, with `client`, the client registrations too. */
  async forget(client: boolean): Promise<void> {
    await this.write((e) => ({
      ...e,
      tokens: undefined,
      ...(client ? { clientInformation: undefined, registrations: undefined } : {}),
    }));
  }

  /** Changes the entry and stores it; an entry left with nothing to keep is removed. */
  async write(change: (e: TokenStoreEntry) => TokenStoreEntry): Promise<void> {
    const next = change(this.current ?? this.blank());
    this.current = next;
    await this.store.update(this.key, () =>
      next.tokens || next.clientInformation || next.scopeWanted ? next : undefined,
    );
    this.loadedVersion = await this.store.version();
  }
}

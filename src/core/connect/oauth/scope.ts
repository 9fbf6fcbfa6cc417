/**
 * Step-up authorization: the scopes granted in a run and the wider scope a 403 insufficient_scope asks for. A
 * refresh cannot widen scope, so while a wanted scope is not covered the provider withholds its refresh token and
 * the SDK starts a new authorization; a server asking again for what it already granted is not asked again.
 */

/** The scope an insufficient_scope challenge (WWW-Authenticate of a 403) names, else undefined. */
export function insufficientScope(challenge: string | null): string | undefined {
  if (!challenge || !/error="?insufficient_scope/.test(challenge)) return undefined;
  return /scope="([^"]*)"/.exec(challenge)?.[1] || undefined;
}

/** The scope an authorization asks for: the URL's own and the scope noted for the next login, each once. */
export function wantedScopes(authorizationUrl: URL, noted: string | undefined): { wanted: string[]; noted: string[] } {
  const fromStore = noted?.split(' ').filter(Boolean) ?? [];
  const asked = authorizationUrl.searchParams.get('scope')?.split(' ').filter(Boolean) ?? [];
  return { wanted: [...new Set([...asked, ...fromStore])], noted: fromStore };
}

export class ScopeTracker {
  private readonly granted = new Set<string>();
  /** The scope a 403 insufficient_scope asked for, until a token covering it arrives. */
  stepUp?: string;

  /** Scopes the authorization server granted in this run. */
  grant(scopes: Iterable<string>): void {
    for (const s of scopes) this.granted.add(s);
  }

  /** True when every scope of `scope` was granted in this run or is in the stored tokens' scope. */
  covers(scope: string, tokenScope: string | undefined): boolean {
    const granted = new Set([...this.granted, ...(tokenScope?.split(' ') ?? [])]);
    return scope.split(' ').every((s) => s === '' || granted.has(s));
  }

  /** True when every scope was already granted in this run (asking again would loop). */
  allGranted(scopes: readonly string[]): boolean {
    return scopes.every((s) => this.granted.has(s));
  }

  /** Whether the next auth() must not refresh: a step-up scope is wanted that the tokens do not cover. */
  needsStepUp(tokenScope: string | undefined): boolean {
    return this.stepUp !== undefined && !this.covers(this.stepUp, tokenScope);
  }
}

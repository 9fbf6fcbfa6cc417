/** Every credential an OAuth provider held in a run (tokens, client secrets, codes, verifiers), for redaction. */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { rememberSecrets } from '../../../process/secrets.js';

export class SeenCredentials {
  private readonly seen = new Set<string>();

  /** One value (an authorization code, a PKCE verifier). */
  add(value: string): void {
    this.seen.add(value);
    // Known to the whole run too, so what a library prints (an SDK warning, a --debug stack) hides it as well.
    if (value.length >= 4) rememberSecrets({ all: [value], strong: [value] });
  }

  /** The secret fields of tokens or of a client's information. */
  remember(x: OAuthTokens | OAuthClientInformationMixed | undefined): void {
    if (!x) return;
    for (const v of [
      'access_token' in x ? x.access_token : undefined,
      'refresh_token' in x ? x.refresh_token : undefined,
      'id_token' in x ? x.id_token : undefined,
      'client_secret' in x ? x.client_secret : undefined,
      'registration_access_token' in x ? x.registration_access_token : undefined,
    ])
      if (typeof v === 'string' && v) this.add(v);
  }

  /** The values long enough to redact without hiding ordinary words. */
  list(): string[] {
    return [...this.seen].filter((v) => v.length >= 4);
  }
}

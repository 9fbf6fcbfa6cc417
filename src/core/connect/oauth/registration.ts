/**
 * The OAuth client mcp-smart presents: the metadata it registers with (DCR), the loopback redirect a registration
 * names, and registrations kept per issuer — each carries the SDK's issuer stamp, so a client registered with one
 * authorization server is never presented to another (SEP-2352).
 */
import type { OAuthClientInformationMixed, OAuthClientMetadata } from '@modelcontextprotocol/client';
import type { TokenStoreEntry } from './token-store.js';

const CLIENT_NAME = 'mcp-smart';

/** The client metadata sent when mcp-smart registers itself. */
export function clientMetadataFor(redirect: string, scopes: readonly string[] | undefined): OAuthClientMetadata {
  return {
    client_name: CLIENT_NAME,
    // A command-line program on the user's machine with a loopback redirect (RFC 8252), said outright rather than
    // left to the SDK's guess from the redirect URI: sent when mcp-smart registers itself (DCR).
    application_type: 'native',
    redirect_uris: [redirect],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...(scopes?.length ? { scope: scopes.join(' ') } : {}),
  };
}

/** The redirect URI a registered client names, if any. */
export function registeredRedirect(info: OAuthClientInformationMixed | undefined): string | undefined {
  return (info && 'redirect_uris' in info ? info.redirect_uris[0] : undefined) || undefined;
}

/** The loopback port of a registered client's redirect URI: the listener takes it again, so the registration holds. */
export function registeredPort(info: OAuthClientInformationMixed | undefined): number | undefined {
  const uri = registeredRedirect(info);
  if (!uri) return undefined;
  try {
    const u = new URL(uri);
    return u.hostname === '127.0.0.1' && u.port ? Number(u.port) : undefined;
  } catch {
    return undefined;
  }
}

/** Issuer identity as the SDK compares it (SEP-2352): equal, or equal but for one trailing slash. */
export function sameIssuer(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

const issuerStamp = (info: OAuthClientInformationMixed | undefined): string | undefined =>
  info && 'issuer' in info && typeof info.issuer === 'string' ? info.issuer : undefined;

/**
 * The stored registration for the authorization server the SDK resolved (`issuer`), else the latest one; and the
 * issuer the server moved to when that registration is stamped with another. The SDK sets such a registration
 * aside and registers again (no browser needed); the tokens are bound to the old issuer too, so the login this
 * then needs says why.
 */
export function registrationFor(
  entry: TokenStoreEntry | undefined,
  issuer: string | undefined,
): { stored: OAuthClientInformationMixed | undefined; movedTo: string | undefined } {
  const byIssuer = issuer ? entry?.registrations?.[issuer] : undefined;
  const stored = byIssuer ?? entry?.clientInformation;
  const stamp = issuerStamp(stored);
  const moved = issuer !== undefined && stamp !== undefined && !sameIssuer(stamp, issuer);
  return { stored, movedTo: moved ? issuer : undefined };
}

/** The entry with a new registration: the latest, and kept under its issuer (its stamp, else the SDK's). */
export function withRegistration(
  entry: TokenStoreEntry,
  info: OAuthClientInformationMixed,
  issuer: string | undefined,
): TokenStoreEntry {
  const at = issuerStamp(info) ?? issuer;
  return {
    ...entry,
    clientInformation: info,
    ...(at ? { registrations: { ...entry.registrations, [at]: info } } : {}),
  };
}

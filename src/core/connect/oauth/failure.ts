/**
 * Why an OAuth connection cannot go on, as catalogued errors: the login a run without a browser needs (and the
 * reason it names), and the authorization server's own refusals the SDK throws.
 */
import {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  OAuthError,
  OAuthErrorCode,
} from '@modelcontextprotocol/client';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { SmartError } from '../../../process/errors.js';
import type { ServerDefinition } from '../../types.js';

/** What a provider knows when it has to ask for `mcp-smart login`. */
export interface LoginState {
  /** The issuer the server's authorization moved to, away from the one the stored credentials are bound to. */
  movedTo?: string;
  /** The scope a 403 insufficient_scope asked for and no token covers yet. */
  stepUpScope?: string;
  /** Tokens were stored when the run began. */
  hadTokens: boolean;
  discovery?: OAuthDiscoveryState;
}

/** AUTH_REQUIRED for the server, with the most specific reason the state gives. */
export function loginNeeded(server: string, state: LoginState): SmartError {
  const d = state.discovery;
  const noMetadata = d !== undefined && !d.resourceMetadata && !d.authorizationServerMetadata;
  const why = state.movedTo
    ? `its authorization server changed to ${state.movedTo}`
    : state.stepUpScope
      ? `the server asks for more scope: ${state.stepUpScope}`
      : state.hadTokens
        ? 'the stored tokens were refused and could not be refreshed'
        : noMetadata
          ? 'HTTP 401 and no OAuth metadata published; if it takes an API key, put it in "headers"'
          : 'no stored tokens';
  return new SmartError('AUTH_REQUIRED', { server, why });
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

/** How many browser authorizations one server may ask for in one run (step-up included). */
export const MAX_AUTHORIZATIONS = 3;

/**
 * Why another browser authorization is not started, if so: the server asks again for scopes it already granted in
 * this run (another round would loop), or it asked MAX_AUTHORIZATIONS times already.
 */
export function authorizationRefused(
  server: string,
  rounds: number,
  scope: string,
  allGranted: boolean,
): SmartError | undefined {
  if (rounds > 0 && allGranted)
    return new SmartError('AUTH_FAILED', {
      reason: `${server} still refuses access with the scopes it granted${scope ? ` (${scope})` : ''}; not asking again`,
    });
  if (rounds >= MAX_AUTHORIZATIONS)
    return new SmartError('AUTH_FAILED', {
      reason: `${server} asked for authorization ${MAX_AUTHORIZATIONS} times in one run; giving up`,
    });
  return undefined;
}

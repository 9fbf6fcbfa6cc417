/** OAuth at the command edge moved to the application layer (src/app/oauth.ts); these names keep imports working. */
export {
  CLIENT_METADATA_URL_ENV,
  browserRefusal,
  createOpener,
  oauthOptions,
  type OAuthContext,
} from '../app/oauth.js';

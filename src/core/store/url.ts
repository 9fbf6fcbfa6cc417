/** A store spec: a file path, or a PostgreSQL URL whose credentials never reach a message. */
import { SmartError } from '../../process/errors.js';
import { redactUrl } from '../../process/redact.js';

const PG_SCHEME = /^postgres(?:ql)?:\/\//i;
/** `<scheme>://`, the scheme two letters or more, so a Windows path (`C:\\…`, `C://…`) is still a path. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]+):\/\//i;

/** True for `postgres://…` and `postgresql://…` (a store given as another URL is refused by checkStoreSpec). */
export const isPostgresUrl = (spec: string): boolean => PG_SCHEME.test(spec);

/** The forms a store may take, for messages. */
export const STORE_FORMS = 'a file path or a postgres:// (postgresql://) URL';

/**
 * Why `spec` cannot name a store, or undefined: a URL of another scheme (mysql://, https://) would otherwise be
 * taken as a relative file path, its credentials written into folder names and printed.
 */
export function foreignStoreUrl(spec: string): string | undefined {
  const scheme = URL_SCHEME.exec(spec)?.[1];
  if (scheme === undefined || isPostgresUrl(spec)) return undefined;
  return `${scheme.toLowerCase()}:// is not a usage store scheme; use ${STORE_FORMS}`;
}

/** Throws STORE_URL_INVALID (exit 2) naming `where` when `spec` is a URL that is not PostgreSQL's. */
export function checkStoreSpec(spec: string, where: string): void {
  const reason = foreignStoreUrl(spec);
  if (reason !== undefined) throw new SmartError('STORE_URL_INVALID', { where, url: redactAnyUrl(spec), reason });
}

/** Any URL as it may be shown: user-info and query values hidden, also when it does not parse as a URL. */
export function redactAnyUrl(url: string): string {
  const shown = redactUrl(url);
  return shown === url ? redactStoreUrl(url) : shown;
}

/** How a store is named in messages: the file path, or the URL with credentials redacted. */
export const storeLabel = (spec: string): string => (isPostgresUrl(spec) ? redactStoreUrl(spec) : spec);

/**
 * The URL with `${VAR}` / `${env:VAR}` expanded from `env` (credentials stay in the environment, not in config files).
 * An unset variable is STORE_URL_INVALID, naming the variable only.
 */
export function expandStoreUrl(url: string, env: Readonly<Record<string, string | undefined>>, where: string): string {
  return url.replace(/\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
    const value = env[name];
    if (value === undefined || value === '')
      throw new SmartError('STORE_URL_INVALID', {
        where,
        url: redactStoreUrl(url),
        reason: `the environment variable ${name} it names is not set`,
      });
    return encodeURIComponent(value);
  });
}

/** The URL as it may be shown: password (and any password/secret query parameter) replaced by `***`. */
export function redactStoreUrl(url: string): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i, (_m, scheme: string, auth: string) => {
    const colon = auth.indexOf(':');
    return colon < 0 ? `${scheme}${auth}@` : `${scheme}${auth.slice(0, colon)}:***@`;
  });
  out = out.replace(/([?&](?:password|pass|sslpassword|sslkey|secret|token)=)[^&#]*/gi, '$1***');
  return out;
}

/** The connection string pg gets: the password from `PGPASSWORD` when the URL has none (pg ignores it then). */
export function connectionString(url: string, env: Readonly<Record<string, string | undefined>>): string {
  const m = /^([a-z]+:\/\/)([^/@?#]*)@/i.exec(url);
  const password = env.PGPASSWORD;
  if (!password) return url;
  if (m) {
    if (m[2]!.includes(':')) return url;
    return url.replace(m[0], `${m[1]}${m[2]}:${encodeURIComponent(password)}@`);
  }
  const user = env.PGUSER;
  if (!user) return url;
  return url.replace(PG_SCHEME, (s) => `${s}${encodeURIComponent(user)}:${encodeURIComponent(password)}@`);
}

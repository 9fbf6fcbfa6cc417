/**
 * The one redaction rule for text that leaves mcp-smart: URL user-info and query values, bearer-style
 * tokens, and the configured secret values (env, headers, expanded variables). Pure; which values of a server
 * definition are secret is core/secret-values.ts.
 */

export const REDACTED_MARK = '***';

/** Name parts that say a variable or header holds a credential. */
const SECRET_PART =
  /^(?:(?:api|access|secret|private|auth|client|master|signing)?keys?|(?:access|refresh|id|bearer|auth|api)?tokens?|secret|secrets|pass|passwd|password|passphrase|pwd|pw|auth|authorization|cred|creds|credential|credentials|private|session|cookie|signature|sig|pat|jwt)$/i;
/** A last name part that says the value is a setting about a credential, not the credential (TOKEN_TYPE, AUTH_MODE). */
const SETTING_PART =
  /^(?:mode|type|kind|format|method|scheme|style|url|uri|host|port|file|path|dir|timeout|ttl|expiry|level|enabled|disabled|name|header|endpoint|version|region|scope|scopes|provider|strategy|location|prefix|length|count|idle|age|limit|size|interval|duration|lifetime)$/i;

/** `GITHUB_TOKEN` → GITHUB, TOKEN; `apiKey` → api, Key; `x-api-key` → x, api, key. */
const nameParts = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter(Boolean);

/** `GITHUB_TOKEN`, `x-api-key`, `apiKey`, `Authorization`: a name that says its value is a credential. */
export function isSecretName(name: string): boolean {
  const parts = nameParts(name);
  const last = parts[parts.length - 1];
  if (last === undefined || SETTING_PART.test(last)) return false;
  // A part that holds a password whole: PGPASSWORD, MYSQLPASSWORD.
  return parts.some((p) => SECRET_PART.test(p) || /passw(?:or)?d/i.test(p));
}

/** A variable's name kept as written (`$GTOKEN`, `${GTOKEN}`, `${input:tenant}`: not set, so no value): never a secret. */
export function isUnexpanded(v: string): boolean {
  return /^\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[^{}]+\})$/.test(v);
}

/**
 * `v` when it is a reference, kept as written, to one of `names` (the variables its config referenced, set or not:
 * `$GITHUB_PAT`, `${GH_PAT}`, `${env:GH_PAT}`, `${GH_PAT:-x}`): a name to show, not a value. A literal that only looks
 * like one (`$ecret` in a file that expands nothing) is still a value.
 */
export function isReferenceTo(v: string, names: readonly string[]): boolean {
  const m = /^\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\})$/.exec(v);
  const name = m?.[1] ?? m?.[2];
  return name !== undefined && names.includes(name);
}

/**
 * One plain word or number (`none`, `text`, `object`, `true`, `8080`): never hidden in our own output even
 * where it sits in a secret's place, since replacing it would rewrite ordinary text (every `"type":"object"`).
 * Server text is still scrubbed of it.
 */
export function isPlainWord(v: string): boolean {
  return /^[A-Za-z]{1,10}$/.test(v) || /^\d{1,10}$/.test(v);
}

/** A URL with user-info and every query value replaced by "redacted" (same rule as `servers --debug`). */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!u.username && !u.password && u.search === '') return url;
  if (u.username) u.username = 'redacted';
  if (u.password) u.password = 'redacted';
  for (const key of [...new Set(u.searchParams.keys())]) u.searchParams.set(key, 'redacted');
  return u.toString();
}

export interface SecretValues {
  /** Every configured value: applied to all text a server sends back (stderr, error bodies). */
  all: string[];
  /** Values that are secrets by where they sit or what they are named: applied to everything we print or write. */
  strong: string[];
}

/** Long, spaceless, mixed letters and digits: an API key whatever its variable is called. */
export function looksLikeToken(v: string): boolean {
  return v.length >= 16 && !/\s/.test(v) && /[A-Za-z]/.test(v) && /[0-9]/.test(v) && !/^[./~]/.test(v);
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*[^\s"'<>`.,;:)\]]/gi;
const BEARER_IN_TEXT = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * `refresh_token=…`, `"access_token": "…"`, `password: …`: a value after a name that says it is a credential
 * (isSecretName), as form bodies, JSON and debug pages quote them. Plain words (`token: none`) stay.
 */
const PAIR_IN_TEXT = /(["']?)([A-Za-z][A-Za-z0-9_.-]{0,60})\1(\s{0,3}[:=]\s{0,3})(["']?)([^\s"'&<>,;{}()[\]]{4,})/g;

/**
 * Credentials known by their shape wherever they stand, with no name before them: GitHub (ghp_, gho_, ghu_, ghs_,
 * ghr_, github_pat_), GitLab, OpenAI and Anthropic (sk-…), Stripe, Slack (xox?-), npm, AWS access key ids, Google
 * API keys, JWTs. Each needs its prefix and a long tail, so ordinary words never match.
 */
const TOKEN_SHAPES = [
  /\bgh[oprsu]_[A-Za-z0-9]{30,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  /\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
  /\b[prs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  /\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g,
  /\bnpm_[A-Za-z0-9]{30,}\b/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
];

/** `text` with secret values, URL user-info/query values, bearer tokens, known token shapes and credential pairs replaced. */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join(REDACTED_MARK);
    const encoded = encodeURIComponent(s);
    if (encoded !== s && out.includes(encoded)) out = out.split(encoded).join(REDACTED_MARK);
  }
  out = out.replace(URL_IN_TEXT, (u) => redactUrl(u));
  out = out.replace(PAIR_IN_TEXT, (m, q: string, name: string, sep: string, q2: string, value: string) =>
    isSecretName(name) && !isPlainWord(value) && value !== REDACTED_MARK
      ? `${q}${name}${q}${sep}${q2}${REDACTED_MARK}`
      : m,
  );
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED_MARK);
  return out.replace(BEARER_IN_TEXT, (_m, scheme: string) => `${scheme} ${REDACTED_MARK}`);
}

/** A run of key characters long enough to be a key; whether it is one, looksLikeRandomKey decides. */
const LONG_RUN = /[A-Za-z0-9+/_=-]{32,}/g;
const HEX_RUN = /\b[A-Fa-f0-9]{32,}\b/g;
/** `//user:password@` without a scheme before it (a URL with one is redactUrl's). */
const BARE_USER_INFO = /\/\/[^/\s:@]+:[^/\s@]+@/g;

/**
 * A run that is random rather than a path or an identifier. A token-looking run (looksLikeToken): mixed case with
 * at least four digits, or 40 characters with no `/` and at least eight digits. Or 40 characters or more of mixed
 * case that split into many one- and two-letter pieces (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, a base64 key
 * with few digits), where a path or an identifier splits into words (`src/components/HeaderNav`,
 * `createOrUpdateSecret2`, `reports/2025-01-15/quarterly-summary` and `org/docs/Web/API/AudioParam` are not keys).
 */
function looksLikeRandomKey(run: string): boolean {
  const digits = run.match(/\d/g)?.length ?? 0;
  const mixedCase = /[A-Z]/.test(run) && /[a-z]/.test(run);
  if (looksLikeToken(run) && ((mixedCase && digits >= 4) || (run.length >= 40 && !run.includes('/') && digits >= 8)))
    return true;
  if (run.length < 40 || !mixedCase || /^[./~]/.test(run)) return false;
  const pieces = run.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g) ?? [];
  const short = pieces.filter((p) => p.length <= 2).length;
  return short >= 5 && short >= pieces.length * 0.4;
}

/** A name that says the next word is a password or a token even in prose: `passwd hunter2`, `my password is …`. */
const PROSE_NAME = /^(?:pass(?:word|wd|phrase)?s?|pwd|pw|tokens?|secrets?|credentials?)$/i;
/** A name in free text (not part of a longer word, nor of a `${VAR}` reference; a flag's `--` before it is not). */
const NAME_IN_TEXT = /(?<![A-Za-z0-9_.{]|[A-Za-z0-9_.]-)[A-Za-z](?:[A-Za-z0-9_.-]{0,60}[A-Za-z0-9])?/g;
/** What may follow a name: `:`/`=`, ` is `/` was `, or a space; then the value (quotes allowed). */
const VALUE_AFTER = /(\s{0,3}[:=]\s{0,3}|[ \t]+(?:is|was)[ \t]+|[ \t]+)(["']?)([^\s"'<>`{}()[\]]{4,})/y;

/**
 * Whether `value`, after a credential's name, is the credential. After `:`/`=` any value but a plain word
 * (`token: none`); after a space or `is`, only a password-looking one (letters with digits or symbols, 6+
 * characters): `reset my password`, `create a token for the CI`, `the password is case-sensitive` stay. A path,
 * a file name or a URL is never one here.
 */
function isNamedValue(value: string, pair: boolean): boolean {
  // A `$VAR` / `${VAR}` is a variable's name, never its value.
  if (
    value.length < 4 ||
    value.includes(REDACTED_MARK) ||
    /^[./~$]|:\/\/|\.[A-Za-z]{1,5}$/.test(value) ||
    isPlainWord(value)
  )
    return false;
  if (pair) return true;
  return value.length >= 6 && /[A-Za-z]/.test(value) && /[0-9!@#$%^&*+=?]/.test(value);
}

/** `pw: correct-horse-…`, `my password is Tr0ub4dor&3`, `--password hunter22`, `token 1234abcd…`: the value hidden. */
function redactNamedValues(text: string): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(NAME_IN_TEXT)) {
    const name = m[0];
    const end = m.index + name.length;
    if (m.index < from || !isSecretName(name)) continue;
    VALUE_AFTER.lastIndex = end;
    const v = VALUE_AFTER.exec(text);
    if (!v) continue;
    const [, sep, quote, raw] = v as unknown as [string, string, string, string];
    const pair = /[:=]/.test(sep);
    if (!pair && !PROSE_NAME.test(nameParts(name).pop()!)) continue;
    // Sentence punctuation after the value stays (`my password is hunter2.`); a quoted value is kept whole.
    const value =
      quote !== '' && text[end + sep.length + quote.length + raw.length] === quote
        ? raw
        : raw.replace(/[.,;:!?]+$/, '');
    if (!isNamedValue(value, pair)) continue;
    const start = end + sep.length + quote.length;
    out += text.slice(from, start) + REDACTED_MARK;
    from = start + value.length;
  }
  return out + text.slice(from);
}

/**
 * Free text a user typed that mcp-smart keeps (remembered intents, serve's --record): redactText, and also a value
 * after a credential's name in prose, credentials with no known shape, long hex runs and long random-looking runs,
 * since nothing names them.
 */
export function redactFreeText(text: string, secrets: readonly string[] = []): string {
  return redactText(redactNamedValues(text), secrets)
    .replace(BARE_USER_INFO, `//${REDACTED_MARK}@`)
    .replace(HEX_RUN, REDACTED_MARK)
    .replace(LONG_RUN, (run) => (looksLikeRandomKey(run) ? REDACTED_MARK : run));
}

/** Only the known values (for output that may legitimately hold URLs, such as tool descriptions). */
export function redactValues(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED_MARK);
  return out;
}

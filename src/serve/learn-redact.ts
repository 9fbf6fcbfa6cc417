/** What a learned intent may not keep: secrets and token-like text (learn.ts). */
/** Token-like text: provider keys, bearer tokens, long hex or base64 runs, URL credentials. */
const SECRET_PATTERNS = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{16,}/g,
  /\b(ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat)[-_][A-Za-z0-9_-]{10,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b[A-Fa-f0-9]{32,}\b/g,
  /\b[A-Za-z0-9+/_-]{40,}={0,2}/g,
  /\/\/[^/\s:@]+:[^/\s@]+@/g,
];

/** The intent with known secret values and token-like text replaced by `***`. */
export function redactIntent(intent: string, secrets: readonly string[]): string {
  let out = intent;
  for (const s of secrets) out = out.split(s).join('***');
  for (const p of SECRET_PATTERNS) out = out.replace(p, '***');
  return out;
}

/** Short, readable failure text from what a server sent: pure helpers for the connect module. */

const MAX_REASON = 300;

/** Lines that close a crash report but say nothing about the crash. */
const TRAILER = [
  /^Node\.js v\d/,
  /^npm (error|ERR!) (A complete log|Log files were not written|\s*$)/i,
  /^npm (error|ERR!) +(\/|[A-Z]:\\).*debug.*\.log$/i,
  // npm's advice after a 404 ("Note that you can also install from a / tarball, folder, …") and its notices.
  /^npm (error|ERR!) 404( Note that you can also install from an?| tarball, folder, http url, or git url\.)?\s*$/i,
  /^npm notice\b/,
  /^\s*at .+\(.+\)$/,
  /^\s*at [^ ]+:\d+:\d+$/,
  /^\s*at (node:|file:|async )/,
  /^\s*\^+\s*$/,
  /^\s*\{?\s*\}?\s*$/,
  /^\s*(code|errno|syscall|path|requireStack|url): /,
  /^Thrown at:$/,
];

/** The stderr line that says what went wrong: the last error-like line, else the last line that is not a trailer. */
export function meaningfulStderrLine(stderr: string): string | undefined {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const plain = lines.filter((l) => !TRAILER.some((t) => t.test(l)));
  // npm's registry answer ("npm error 404 Not Found - GET https://…") says what failed better than the lines after it.
  const registry = plain.filter((l) => /^npm (error|ERR!) \d{3} \S.* - [A-Z]+ https?:\/\//.test(l));
  if (registry.length > 0) return excerpt(registry[registry.length - 1]!.trim(), MAX_REASON);
  const errorLike = plain.filter((l) => /\b(Error|Exception|error|ERR!|Cannot|cannot|failed|Failed|denied)\b/.test(l));
  const line = errorLike[errorLike.length - 1] ?? plain[plain.length - 1] ?? lines[lines.length - 1];
  return line === undefined ? undefined : excerpt(line.trim(), MAX_REASON);
}

/** At most `max` characters, whitespace collapsed, with "…" and the size when cut. */
export function excerpt(text: string, max = MAX_REASON): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}… (${flat.length} characters in all)`;
}

/** A schema library's issue list (the SDK's raw "invalid result" dump) as one line naming the fields. */
export function schemaIssuesText(text: string): string | undefined {
  const start = text.indexOf('[');
  if (start < 0) return undefined;
  let issues: unknown;
  try {
    issues = JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const parts = issues.slice(0, 3).map((i: unknown) => {
    const issue = (typeof i === 'object' && i !== null ? i : {}) as { path?: unknown; message?: unknown };
    const path = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.join('.') : '(the result)';
    return `${path}: ${typeof issue.message === 'string' ? issue.message : 'invalid'}`;
  });
  return `${parts.join('; ')}${issues.length > 3 ? `; and ${issues.length - 3} more` : ''}`;
}

const HTML_DOC = /<(!doctype html|html)\b[\s\S]*?(<\/html>|$)/gi;

/** An HTML page (a proxy's or a framework's error page) reduced to its title or first text. */
function htmlText(text: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
  const body = text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `an HTML page${title ? ` titled "${title}"` : ''}${body ? `: ${excerpt(body, 60)}` : ''}`;
}

/** The reason shown for a failure: one line, schema dumps named by field, HTML pages by title, never a whole body. */
export function shortReason(text: string): string {
  const issues = schemaIssuesText(text);
  if (issues !== undefined) {
    // SDK v2 heads the issues with "Invalid result for <method>:"; the caller already names the phase.
    const head = text
      .slice(0, text.indexOf('['))
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^Invalid result for \S+:$/, '');
    return excerpt(`${head ? `${head} ` : ''}invalid field ${issues}`, MAX_REASON);
  }
  // Every HTML page in the text becomes its title and a few words; the text around it stays.
  return excerpt(
    text.replace(HTML_DOC, (page) => htmlText(page)),
    MAX_REASON,
  );
}

/** The note for an optional list (prompts, resources) that failed while the tools were listed. */
export function optionalListNote(method: string, reason: string): string {
  return `${method} failed (${shortReason(reason)}); the tools were kept`;
}

/**
 * zod's issues as the SDK throws them (a JSON array of {path, message} as an Error's message), in one line: what a
 * -32602 answer and an unreadable message's note say was wrong.
 */

/** Issues shown in the line by default; the rest are counted. */
const SHOWN_ISSUES = 3;

/** zod's issues (a JSON array of {path, message}) in one line, or undefined when `text` is not that. */
export function issuesLine(text: string, shown = SHOWN_ISSUES): string | undefined {
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const lines: string[] = [];
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue !== 'object' || issue === null || typeof issue.message !== 'string') return undefined;
    const path = Array.isArray(issue.path) ? issue.path.join('.') : '';
    lines.push(path ? `${path}: ${issue.message}` : issue.message);
  }
  const more = lines.length - shown;
  return lines.slice(0, shown).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

/** Why a message was refused, in one line: zod's issues (a JSON list in the message) as `path: message`, or its first line. */
export function refusalText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const issues = issuesLine(text, 2);
  if (issues !== undefined) return issues;
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || 'the SDK refused its shape';
}

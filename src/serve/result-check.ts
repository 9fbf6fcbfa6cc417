/**
 * Checks a server's tools/call result before it is passed on. The SDK's own check answered an invalid one with a
 * -32602 carrying the whole schema report (dozens of lines of union branches) and no word of which server sent
 * it; here the first problem is told in one line — where in the result, what was expected — for the caller to
 * name the server and tool (SERVE_BAD_RESULT).
 */
import { isInputRequiredResult, specTypeSchemas } from '@modelcontextprotocol/server';
import { isPlainObject } from '../core/config/key-path.js';
import { isPlainResult } from './plain-result.js';

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  values?: unknown[];
  errors?: Issue[][];
}

/** The first problem that makes `result` an invalid CallToolResult, in one line; undefined when it is valid. */
export function resultProblem(result: unknown): string | undefined {
  // What the SDK passes without its check: a 2026-07-28 input-required answer; no `content` counts as none.
  if (isInputRequiredResult(result)) return undefined;
  // Text blocks, structuredContent and isError alone (nearly every result) are valid without the schema's parse: a
  // scan that allocates nothing (the stdio wire path then writes such a result as it is, plain-result.ts).
  if (isPlainObject(result) && isPlainResult(result)) return undefined;
  const value =
    result !== null && typeof result === 'object' && !Array.isArray(result) && !('content' in result)
      ? { ...result, content: [] }
      : result;
  const r = specTypeSchemas.CallToolResult['~standard'].validate(value);
  if (!r.issues) return undefined;
  const first = (r.issues as unknown as Issue[])[0];
  return first ? describe(first, [], value) : 'it is not a tool result';
}

function describe(issue: Issue, base: PropertyKey[], root: unknown): string {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
    // A content block is a union keyed by `type`: follow the branch whose `type` matched, if one did.
    const isTypeMiss = (i: Issue): boolean => i.code === 'invalid_value' && i.path[i.path.length - 1] === 'type';
    const matching = issue.errors.find((branch) => branch.length > 0 && !branch.some(isTypeMiss));
    if (matching) return describe(matching[0]!, path, root);
    const types = issue.errors.flatMap((b) => b.filter(isTypeMiss).flatMap((i) => i.values ?? []));
    if (types.length > 0)
      return `${where([...path, 'type'])} is ${shown(valueAt(root, [...path, 'type']))}, not one of ${types.map((t) => JSON.stringify(t)).join(', ')}`;
  }
  const said = issue.message.replace(/^Invalid input: /, '').replace(/, received undefined$/, ', got nothing');
  return `${where(path)}: ${said}`;
}

/** `content[0].text`, or `the result` for the root. */
function where(path: PropertyKey[]): string {
  if (path.length === 0) return 'the result';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let v = root;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function shown(v: unknown): string {
  if (v === undefined) return 'missing';
  const text = JSON.stringify(v) ?? typeof v;
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

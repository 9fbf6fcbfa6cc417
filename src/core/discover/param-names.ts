/**
 * A tool's top-level parameter names, which checks after the re-ranker read (checks/container-input.ts,
 * checks/file-path.ts): from its input schema, or, for a tool from the catalogue start cache (which keeps no
 * schemas), from what the cache kept of them under PARAM_NAMES.
 */
import type { ToolSnapshot } from '../types.js';

/**
 * Where a lean tool (catalogue-cache.ts) keeps its top-level parameter names: one string, each name ended by a line
 * feed (a string is read from the cache at copying speed; an array per tool would be parsed).
 */
export const PARAM_NAMES = Symbol('mcp-smart.paramNames');

/** The names as a lean tool keeps them (joinedParams(["a", "b"]) = "a\nb\n"). */
export function joinedParams(names: readonly string[]): string {
  return names.map((n) => `${n}\n`).join('');
}

/**
 * joinedParams(topParams(tool)), read straight from a lean tool: the names it keeps are that very string (one ending
 * in a line feed, or empty), which splitting and joining again would give back unchanged.
 */
export function joinedTopParams(tool: ToolSnapshot): string {
  const kept = keptNames(tool);
  if (kept !== undefined && (kept === '' || kept.endsWith('\n'))) return kept;
  return joinedParams(topParams(tool));
}

/** The tool's top-level parameter names, in schema order. */
export function topParams(tool: ToolSnapshot): readonly string[] {
  const kept = keptNames(tool);
  if (kept !== undefined) return kept === '' ? [] : kept.slice(0, -1).split('\n');
  const props = (tool.inputSchema as { properties?: unknown } | undefined)?.properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

/** The names a lean tool keeps under PARAM_NAMES, or undefined for a tool with its schema. */
function keptNames(tool: ToolSnapshot): string | undefined {
  return (tool as { [PARAM_NAMES]?: string })[PARAM_NAMES];
}

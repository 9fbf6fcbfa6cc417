/**
 * A tool's top-level parameter names, which checks after the re-ranker read (container.ts, filename.ts): from its
 * input schema, or, for a tool from the catalogue start cache (which keeps no schemas), from what the cache kept of
 * them under PARAM_NAMES.
 */
import type { ToolSnapshot } from '../../types.js';

/** Where a lean tool (catalogue-cache.ts) keeps its top-level parameter names. */
export const PARAM_NAMES = Symbol('mcp-smart.paramNames');

/** The tool's top-level parameter names, in schema order. */
export function topParams(tool: ToolSnapshot): readonly string[] {
  const kept = (tool as { [PARAM_NAMES]?: readonly string[] })[PARAM_NAMES];
  if (kept !== undefined) return kept;
  const props = (tool.inputSchema as { properties?: unknown } | undefined)?.properties;
  return props !== null && typeof props === 'object' ? Object.keys(props) : [];
}

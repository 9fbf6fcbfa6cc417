/** Condensing tool definitions to a level: lossless, compact, minimal, names, or the meta-tools. */
import type { CondenseLevel, JsonObject, ToolSnapshot } from '../types.js';
import { compactDescription, compactSchema } from './compact.js';
import { condenseSchemaLossless } from './lossless.js';
import { metaTools } from './meta.js';
import { shortenProse } from './prose.js';
import { argumentSignature } from './signature.js';
import { headerOnlySchema } from '../x-mcp-header.js';

export { metaTools } from './meta.js';
export { toolSignature, argumentSignature } from './signature.js';
export { condenseSchemaLossless, normalizeName } from './lossless.js';
export { firstSentence, shortenProse, repeatsName } from './prose.js';
export { compactSchema } from './compact.js';
export { eachSchema, hasKeyword } from './schema-walk.js';

export const MINIMAL_SUMMARY_MAX = 100;

const OBJECT: JsonObject = { type: 'object' };

/** Rebuilds a tool with the public field order: name, title, description, inputSchema, outputSchema, annotations, rest. */
function withFields(tool: ToolSnapshot, fields: Partial<ToolSnapshot>): ToolSnapshot {
  const merged: ToolSnapshot = { ...tool, ...fields };
  const out: ToolSnapshot = { name: merged.name };
  for (const k of ['title', 'description', 'inputSchema', 'outputSchema', 'annotations']) {
    if (merged[k] !== undefined) out[k] = merged[k];
  }
  for (const [k, v] of Object.entries(merged)) if (!(k in out) && v !== undefined) out[k] = v;
  return out;
}

/** The compact form, given the tool and its lossless form (lets audit condense each tool once). */
export function compactFromLossless(tool: ToolSnapshot, lossless: ToolSnapshot): ToolSnapshot {
  const description = typeof tool.description === 'string' ? compactDescription(tool.description) : undefined;
  return withFields(lossless, {
    description: description === '' ? undefined : description,
    inputSchema: lossless.inputSchema ? compactSchema(lossless.inputSchema) : undefined,
    outputSchema: lossless.outputSchema ? compactSchema(lossless.outputSchema) : undefined,
  });
}

/** Every audited level of one tool, condensing the lossless form once. */
export function condenseToolLevels(tool: ToolSnapshot): {
  full: ToolSnapshot;
  lossless: ToolSnapshot;
  compact: ToolSnapshot;
  minimal: ToolSnapshot;
} {
  const lossless = condenseTool(tool, 'lossless');
  return { full: tool, lossless, compact: compactFromLossless(tool, lossless), minimal: condenseTool(tool, 'minimal') };
}

/**
 * One tool at a level. `full` returns the tool unchanged; `meta` has no per-tool form and gives the
 * `names` form (use `condenseTools` for the meta-tools).
 */
export function condenseTool(tool: ToolSnapshot, level: CondenseLevel): ToolSnapshot {
  switch (level) {
    case 'full':
      return tool;
    case 'lossless':
      return withFields(tool, {
        inputSchema: tool.inputSchema ? condenseSchemaLossless(tool.inputSchema, tool.name) : undefined,
        outputSchema: tool.outputSchema ? condenseSchemaLossless(tool.outputSchema, tool.name) : undefined,
      });
    case 'compact':
      return compactFromLossless(tool, condenseTool(tool, 'lossless'));
    case 'minimal': {
      // Nothing is added that the tool did not have (no "()" for no arguments, no schema where it sent none),
      // so minimal never costs more than compact.
      const summary = typeof tool.description === 'string' ? shortenProse(tool.description, MINIMAL_SUMMARY_MAX) : '';
      const signature = argumentSignature(tool.inputSchema);
      const description = [signature ? `(${signature})` : '', summary].filter((x) => x !== '').join(' ');
      const out: ToolSnapshot = { name: tool.name };
      if (description !== '') out.description = description;
      // x-mcp-header declarations survive (SEP-2243): a gateway in front of serve routes on those headers.
      if (tool.inputSchema !== undefined) out.inputSchema = headerOnlySchema(tool.inputSchema) ?? OBJECT;
      return out;
    }
    case 'names':
    case 'meta':
      return { name: tool.name, inputSchema: headerOnlySchema(tool.inputSchema) ?? OBJECT };
  }
}

/** A tool list at a level; `meta` replaces the whole list with the four meta-tools. */
export function condenseTools(tools: readonly ToolSnapshot[], level: CondenseLevel): ToolSnapshot[] {
  if (level === 'meta') return metaTools();
  return tools.map((t) => condenseTool(t, level));
}

/** The text a client sends for a tool list: the renderings every token figure counts. */
import type { JsonObject, ToolSnapshot } from '../types.js';

export type RenderStyle = 'json' | 'cline';

const EMPTY_SCHEMA: JsonObject = { type: 'object' };

/** True when a schema says nothing beyond "an object" (minimal/names levels); cline then omits it. */
function isBareObjectSchema(schema: JsonObject | undefined): boolean {
  if (!schema) return true;
  const keys = Object.keys(schema);
  return keys.length === 0 || (keys.length === 1 && schema.type === 'object');
}

/**
 * One tool as an API tools-array entry, compact JSON: `{"name","description","input_schema"}`
 * (Anthropic's Messages API shape; description omitted when the server sent none).
 */
export function renderToolJson(tool: ToolSnapshot): string {
  const entry: Record<string, unknown> = { name: tool.name };
  if (typeof tool.description === 'string' && tool.description !== '') entry.description = tool.description;
  entry.input_schema = tool.inputSchema ?? EMPTY_SCHEMA;
  return JSON.stringify(entry);
}

/** One tool as in the MCP section of a Cline/Roo system prompt (schema pretty-printed, indented 4). */
export function renderToolCline(tool: ToolSnapshot): string {
  const head = `- ${tool.name}: ${tool.description ?? ''}`;
  if (isBareObjectSchema(tool.inputSchema)) return head;
  const schema = JSON.stringify(tool.inputSchema, null, 2).split('\n').join('\n    ');
  return `${head}\n    Input Schema:\n    ${schema}`;
}

export function renderTool(tool: ToolSnapshot, style: RenderStyle): string {
  return style === 'cline' ? renderToolCline(tool) : renderToolJson(tool);
}

/**
 * The per-server text that is not any one tool's: in cline, the heading and the separators between
 * tool blocks; in json, nothing (a server's figure is the sum of its tools' entries).
 */
export function renderServerOverhead(serverName: string, toolCount: number, style: RenderStyle): string {
  if (style === 'json') return '';
  const separators = '\n\n'.repeat(Math.max(0, toolCount - 1));
  return `## ${serverName}\n\n### Available Tools\n${separators}`;
}

/** The whole rendered list of one server's tools, exactly as counted. */
export function renderTools(tools: readonly ToolSnapshot[], style: RenderStyle, serverName = ''): string {
  if (style === 'json') return `[${tools.map(renderToolJson).join(',')}]`;
  return `## ${serverName}\n\n### Available Tools\n${tools.map(renderToolCline).join('\n\n')}`;
}

/**
 * The meta-tools of the optimizer pattern: they stand in for every tool at the `meta` level and are what
 * `serve` sends for the servers behind it, so a budget plan counts exactly what serve serves.
 * `call_tool_read` refuses tools not annotated readOnlyHint, so a client can auto-approve it without
 * approving every write (per-tool approval survives the proxy).
 */
import type { JsonObject, ToolSnapshot } from '../types.js';

const NAME: JsonObject = { type: 'string', description: 'Tool id "<server>.<tool>" from find_tool or list_tools.' };
const ARGUMENTS: JsonObject = { type: 'object', description: 'Arguments matching the tool input schema.' };

/** `find_tool`, `describe_tool`, `list_tools`, `call_tool`, `call_tool_read`, with full schemas. */
export function metaTools(): ToolSnapshot[] {
  return [
    {
      name: 'find_tool',
      description:
        'Find tools for a task among the tools this server can call. Say action + object + product ("list events Google Calendar"), other phrasings in queries. Returns ids, one-line summaries and input schemas; then call one with call_tool.',
      inputSchema: {
        type: 'object',
        properties: {
          intent: { type: 'string', description: 'The task in plain words.' },
          queries: { type: 'array', items: { type: 'string' }, description: 'Other phrasings of the task (fused).' },
          k: { type: 'integer', minimum: 1, maximum: 20, description: 'How many tools (default 5).' },
          server: { type: 'string', description: 'Only this server.' },
          maxTokens: { type: 'integer', description: 'Token cap (default 1500).' },
        },
        required: ['intent'],
      },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'describe_tool',
      description: 'The full definition of one tool: description, input schema, annotations.',
      inputSchema: { type: 'object', properties: { name: NAME }, required: ['name'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'list_tools',
      description: 'Ids and one-line summaries of all tools, or of one server.',
      inputSchema: { type: 'object', properties: { server: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'call_tool',
      description: 'Call any tool by id. Returns its result unchanged.',
      inputSchema: { type: 'object', properties: { name: NAME, arguments: ARGUMENTS }, required: ['name'] },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    {
      name: 'call_tool_read',
      description: 'Call a read-only tool (annotated readOnlyHint) by id; refuses any other. Same result as call_tool.',
      inputSchema: { type: 'object', properties: { name: NAME, arguments: ARGUMENTS }, required: ['name'] },
      annotations: { readOnlyHint: true },
    },
  ];
}

/** The four meta-tools of the optimizer pattern: they stand in for every tool at the `meta` level. */
import type { ToolSnapshot } from '../../types.js';

/** `find_tool`, `describe_tool`, `list_tools`, `call_tool`, with full schemas. */
export function metaTools(): ToolSnapshot[] {
  return [
    {
      name: 'find_tool',
      description:
        'Search the available tools by a natural-language description of the task. Returns the best matching tool ids with one-line summaries.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do, in plain words.' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 5, description: 'How many tools to return.' },
          server: { type: 'string', description: 'Only search the tools of this server.' },
        },
        required: ['query'],
      },
    },
    {
      name: 'describe_tool',
      description:
        'Get the full definition (description and input schema) of a tool found with find_tool or list_tools.',
      inputSchema: {
        type: 'object',
        properties: { tool: { type: 'string', description: 'Tool id as "<server>.<tool>".' } },
        required: ['tool'],
      },
    },
    {
      name: 'list_tools',
      description: 'List the ids and one-line summaries of all available tools, optionally for one server.',
      inputSchema: {
        type: 'object',
        properties: { server: { type: 'string', description: 'Only list the tools of this server.' } },
      },
    },
    {
      name: 'call_tool',
      description: 'Call a tool with arguments that match the input schema returned by describe_tool.',
      inputSchema: {
        type: 'object',
        properties: {
          tool: { type: 'string', description: 'Tool id as "<server>.<tool>".' },
          arguments: { type: 'object', description: 'The arguments for the tool.' },
        },
        required: ['tool', 'arguments'],
      },
    },
  ];
}

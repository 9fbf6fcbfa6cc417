import type { JsonObject } from '../../src/core/types.js';

/** A catalogue entry as buildDiscoverIndex takes it: a tool of `server`, with no parameters (and its annotations). */
export const catalogueEntry = (server: string, name: string, description: string, annotations?: JsonObject) => ({
  id: `${server}.${name}`,
  server,
  tool: {
    name,
    description,
    inputSchema: { type: 'object' as const },
    ...(annotations ? { annotations } : {}),
  },
});

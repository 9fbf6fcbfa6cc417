/** `mcp-smart trust`: its declaration (spec.ts). */
import type { CommandSpec } from './spec.js';

export const trustSpec: CommandSpec = {
  name: 'trust',
  description: "approve this project's own servers (.mcp.json, .cursor/mcp.json, …) so mcp-smart may start them",
  help: '\nA changed server definition asks again. In CI pass --trust-project (or MCP_SMART_TRUST_PROJECT=1) instead.\n\nExamples:\n  mcp-smart servers\n  mcp-smart trust',
  load: async () => (await import('./trust.js')).runTrustCommand,
};

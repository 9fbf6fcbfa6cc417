// The HAProxy config docs/team.md shows under "Team gateway: several replicas" (test/e2e/serve-replicas.test.ts checks
// that it does) and that the replicas' test and bench/gateway.mjs run. Plain .mjs so the bench can import it too.

/** The config for a frontend `listen` (host:port) balancing `replicas` (host:port each, as serve prints them). */
export function haproxyConfig(listen, replicas) {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 3s',
    '  # a call may wait for its server up to serve --call-timeout (default 120 s)',
    '  timeout client 130s',
    '  timeout server 130s',
    'frontend mcp',
    `  bind ${listen}`,
    '  default_backend serve',
    'backend serve',
    '  # 2026-07-28 requests: any replica (input_required state is sealed and names the replica holding the call)',
    '  balance roundrobin',
    '  option redispatch',
    '  retries 2',
    '  # 2025 clients: a session lives in one replica; stick on Mcp-Session-Id, learned from the initialize answer',
    '  stick-table type string len 64 size 100k expire 30m',
    '  stick on req.hdr(mcp-session-id)',
    '  stick store-response res.hdr(mcp-session-id)',
    '  # a replica bound to loopback answers only requests whose Host names it: each is sent its own name',
    '  http-send-name-header Host',
    ...replicas.map((r) => `  server ${r} ${r} check inter 500 fall 2 rise 2`),
    '',
  ].join('\n');
}

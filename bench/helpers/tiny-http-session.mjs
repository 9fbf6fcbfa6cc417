// bench/peers.mjs's Streamable HTTP baseline: the tiny fixture catalog served over Streamable HTTP *with a session*
// (one server and transport for the client's whole session, as a proxy keeps one), not the fixture's stateless mode
// (a new server per POST), which would make the baseline slower than what it is compared with.
// Usage: node tiny-http-session.mjs <catalog.json>; prints "listening <url>" on stdout (a free port on 127.0.0.1).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createCatalogServer, loadCatalog } from '../../fixtures/servers/lib.mjs';

const catalog = loadCatalog(process.argv[2]);
const sessions = new Map();
const httpServer = createServer(async (req, res) => {
  if (!req.url.startsWith('/mcp')) return void res.writeHead(404).end();
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? sessions.get(id) : undefined;
  if (!transport) {
    if (id !== undefined) return void res.writeHead(404).end('unknown session');
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    transport.onclose = () => sessions.delete(transport.sessionId);
    await createCatalogServer(catalog).connect(transport);
  }
  await transport.handleRequest(req, res);
});
httpServer.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${httpServer.address().port}/mcp\n`);
});

// A loopback port that was free a moment ago (bound to port 0 and released), for what cannot listen on port 0 itself:
// HAProxy, PostgreSQL, peer proxies in bench/peers.mjs. Plain .mjs so benches can import it too.
import { createServer } from 'node:net';

/** A free loopback port (bound and released: the caller binds it next). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

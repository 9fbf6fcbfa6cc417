// A fetch whose connections leave from a given local address (127.0.0.2, …: Linux routes all of 127/8 to the
// loopback interface), so one test process can be several HTTP clients as serve tells them apart without a token —
// by the peer's address (src/serve/client-key.ts). Streams the response body (SSE answers arrive as sent).
import { request } from 'node:http';
import { Readable } from 'node:stream';

export function fetchFrom(localAddress: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const out = request(
        req.url,
        { method: req.method, headers: Object.fromEntries(req.headers), localAddress, signal: req.signal },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304 || req.method === 'HEAD';
          if (empty) res.resume();
          resolve(new Response(empty ? null : (Readable.toWeb(res) as ReadableStream), { status, headers }));
        },
      );
      out.once('error', reject);
      out.end(body);
    });
  };
}

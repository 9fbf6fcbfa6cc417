// An npm registry on 127.0.0.1 in which mcp-smart is published: the packed tarball under its version, and a newer
// `latest` whose tarball is missing (so a command that does not pin the version fails). Every other request is
// passed through to the real registry, so the dependencies resolve exactly as they would for a published package.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface LocalRegistry {
  url: string;
  /** The paths asked for, in order (for asserting what npm fetched from here). */
  requests: string[];
  close(): Promise<void>;
}

export interface PublishedPackage {
  /** The package.json that was packed. */
  manifest: { name: string; version: string } & Record<string, unknown>;
  tarball: string;
  integrity: string;
  shasum: string;
  /** A newer version listed as `latest` whose tarball answers 404. */
  decoyLatest: string;
}

function forward(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const target = new URL(req.url ?? '/', upstream);
  const out = httpsRequest(
    target,
    { method: req.method, headers: { accept: req.headers.accept ?? '*/*', 'user-agent': 'mcp-smart-test-registry' } },
    (up) => {
      res.writeHead(up.statusCode ?? 502, { 'content-type': up.headers['content-type'] ?? 'application/octet-stream' });
      up.pipe(res);
    },
  );
  out.on('error', (e) => {
    res.writeHead(502);
    res.end(String(e));
  });
  out.end();
}

/** Starts the registry on an ephemeral port; `upstream` answers everything but `pkg`. */
export async function startLocalRegistry(pkg: PublishedPackage, upstream: string): Promise<LocalRegistry> {
  const requests: string[] = [];
  const digest = (alg: string, enc: 'base64' | 'hex' = 'base64'): string =>
    createHash(alg).update(`decoy ${pkg.decoyLatest}`).digest(enc);
  let url = '';
  const { name, version } = pkg.manifest;
  const file = (v: string): string => `/${name}/-/${name}-${v}.tgz`;
  const entry = (v: string, integrity: string, shasum: string): object => ({
    ...pkg.manifest,
    version: v,
    _id: `${name}@${v}`,
    dist: { tarball: `${url}${file(v).slice(1)}`, integrity, shasum },
  });
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(req.url ?? '/');
    requests.push(path);
    if (path === `/${name}`) {
      const doc = {
        name,
        'dist-tags': { latest: pkg.decoyLatest },
        versions: {
          [version]: entry(version, pkg.integrity, pkg.shasum),
          // Its own digest: npm would otherwise take the published tarball out of its content-addressed cache.
          [pkg.decoyLatest]: entry(pkg.decoyLatest, `sha512-${digest('sha512')}`, digest('sha1', 'hex')),
        },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc));
    } else if (path === file(version)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(readFileSync(pkg.tarball));
    } else if (path.startsWith(`/${name}/`)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
    } else forward(upstream, req, res);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    requests,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

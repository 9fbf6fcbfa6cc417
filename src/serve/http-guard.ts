/**
 * Who may talk to `serve --transport http`. Bound to loopback, a request's Host (and Origin, when sent) must name
 * this server: any loopback address literal (127.0.0.0/8, [::1]), `localhost`, or the --host value, on the bound
 * port. A web page reaching it through DNS rebinding carries its own domain name there and is refused (403). Bound
 * to anything else, the bearer token protects the server and any name is answered.
 */
import { timingSafeEqual } from 'node:crypto';

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** A loopback bind address: 127.0.0.0/8, ::1 (bracketed or not), or localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || IPV4_LOOPBACK.test(h);
}

/** Host and port of an authority ("127.0.0.5:8808", "[::1]:80", "localhost"); undefined when it is not one. */
function authority(text: string, defaultPort: string): { host: string; port: string } | undefined {
  // Only what a Host header may hold: no user info, path or spaces that URL parsing would quietly drop.
  if (!/^[a-z0-9.\-[\]:]+$/i.test(text)) return undefined;
  try {
    const url = new URL(`http://${text}`);
    return { host: url.hostname.toLowerCase(), port: url.port || defaultPort };
  } catch {
    return undefined;
  }
}

export interface HostGuard {
  /** True when a Host header names this server. */
  host: (header: string | undefined) => boolean;
  /** True when an Origin header names this server (absent Origin: not a browser, allowed). */
  origin: (header: string | undefined, hostHeader: string | undefined) => boolean;
}

/** Host and port an Origin names, with its scheme's default port; undefined when it is not an http(s) origin. */
function originAuthority(header: string): { host: string; port: string } | undefined {
  try {
    const url = new URL(header);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return { host: url.hostname.toLowerCase(), port: url.port || (url.protocol === 'https:' ? '443' : '80') };
  } catch {
    return undefined;
  }
}

/** The Host/Origin check for a server bound to `bindHost` on `port`. */
export function hostGuard(bindHost: string, port: number): HostGuard {
  if (!isLoopback(bindHost))
    return {
      host: () => true,
      // Any name, but a browser's Origin must be the page of the name it asked for.
      origin: (header, hostHeader) => {
        if (header === undefined) return true;
        const o = originAuthority(header);
        const h = hostHeader === undefined ? undefined : authority(hostHeader, o?.port ?? '80');
        return o !== undefined && h !== undefined && o.host === h.host && o.port === h.port;
      },
    };
  const bound = authority(bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost, '');
  const names = (host: string, p: string): boolean =>
    p === String(port) && (isLoopback(host) || host === 'localhost' || host === bound?.host);
  return {
    host: (header) => {
      const a = header === undefined ? undefined : authority(header, '80');
      return a !== undefined && names(a.host, a.port);
    },
    origin: (header) => {
      if (header === undefined) return true;
      const o = originAuthority(header);
      return o !== undefined && names(o.host, o.port);
    },
  };
}

/** True when an Authorization header carries `Bearer <token>` (compared in constant time). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]!.trim());
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

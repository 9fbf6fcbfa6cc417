/**
 * The one-shot loopback redirect listener of a native OAuth client (RFC 8252 §7.3): 127.0.0.1, a free
 * port, one path; it accepts exactly one callback whose `state` matches, then closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SmartError } from '../../../process/errors.js';

export const CALLBACK_PATH = '/callback';

export interface LoopbackListener {
  redirectUrl: string;
  /** Resolves with the authorization code of the first callback carrying `state`. */
  waitForCode(state: string, opts: { timeoutMs: number; signal?: AbortSignal; server: string }): Promise<string>;
  /** The `iss` of the callback that delivered the last code (RFC 9207), for the SDK to check; undefined if none. */
  issuer(): string | undefined;
  close(): Promise<void>;
}

const PAGE = (title: string, text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif"><h1>${title}</h1><p>${text}</p></body>`;

async function listen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onError = (): void => resolve(false);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

interface Waiter {
  state: string;
  resolve: (code: string) => void;
  reject: (e: Error) => void;
}

/** Starts listening on 127.0.0.1 (on `preferredPort` when it is free, so a registered redirect URI still matches). */
export async function startLoopbackListener(preferredPort?: number): Promise<LoopbackListener> {
  let waiter: Waiter | undefined;
  let mismatched = 0;
  let issuer: string | undefined;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const state = url.searchParams.get('state');
    if (!waiter || state === null || state !== waiter.state) {
      // Not our request (another page, a replay, a forged redirect): refuse it and keep waiting.
      mismatched++;
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('mcp-smart: unexpected request', 'The state parameter does not match the login in progress.'));
      return;
    }
    const w = waiter;
    waiter = undefined;
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || !code) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8' })
        .end(PAGE('mcp-smart: authorization failed', 'You can close this tab and look at the terminal.'));
      const description = url.searchParams.get('error_description');
      w.reject(
        new SmartError('AUTH_FAILED', {
          reason: `the authorization server answered ${error ?? 'without a code'}${description ? ` (${description.slice(0, 200)})` : ''}`,
        }),
      );
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(PAGE('mcp-smart: signed in', 'The authorization was received. You can close this tab.'));
    issuer = url.searchParams.get('iss') ?? undefined;
    w.resolve(code);
  });
  const ok =
    (preferredPort !== undefined && preferredPort > 0 && (await listen(server, preferredPort))) ||
    (await listen(server, 0));
  if (!ok) throw new SmartError('AUTH_FAILED', { reason: 'could not listen on 127.0.0.1 for the redirect' });
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    redirectUrl: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    close,
    issuer: () => issuer,
    waitForCode(state, { timeoutMs, signal, server: name }) {
      return new Promise<string>((resolve, reject) => {
        const timers: NodeJS.Timeout[] = [];
        const finish = (): void => {
          for (const t of timers) clearTimeout(t);
          signal?.removeEventListener('abort', onAbort);
          waiter = undefined;
        };
        const onAbort = (): void => {
          finish();
          reject(new SmartError('CONNECT_ABORTED', { phase: 'authorization' }));
        };
        const timer = setTimeout(() => {
          finish();
          const note = mismatched > 0 ? ` (${mismatched} request(s) with a wrong state were refused)` : '';
          reject(
            new SmartError('AUTH_FAILED', {
              reason: `no authorization for ${name} arrived at ${CALLBACK_PATH} within ${timeoutMs} ms${note}`,
            }),
          );
        }, timeoutMs);
        timers.push(timer);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        waiter = {
          state,
          resolve: (code) => {
            finish();
            resolve(code);
          },
          reject: (e) => {
            finish();
            reject(e);
          },
        };
      });
    },
  };
}

/**
 * Shows the authorization URL (the opener) and resolves with the code the redirect brings. The wait starts first,
 * so a redirect faster than the opener is not missed.
 */
export async function codeFromBrowser(
  listener: LoopbackListener,
  url: URL,
  opts: {
    state: string;
    open: (url: URL, server: string) => Promise<void>;
    timeoutMs: number;
    signal?: AbortSignal;
    server: string;
  },
): Promise<string> {
  const code = listener.waitForCode(opts.state, {
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    server: opts.server,
  });
  code.catch(() => undefined); // observed below; an opener failure must not leave it unhandled
  await opts.open(url, opts.server);
  return code;
}

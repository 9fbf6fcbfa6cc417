/**
 * The fetch an OAuth provider gives the transports (and the SDK's auth()): a refresh-token grant already sent with
 * the same refresh token is answered from that one response, so concurrent 401s (parallel list requests, or a
 * long-running process) do not spend a rotating refresh token twice and lose the session.
 */

/** A fetch that shares refresh-token grants; `forbidden` sees the WWW-Authenticate of every other 403. */
export function sharedRefreshFetch(
  forbidden: (challenge: string | null) => Promise<void>,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const refreshing = new Map<string, Promise<Response>>();
  return async (url, init) => {
    const body = init?.body;
    if (init?.method === 'POST' && body instanceof URLSearchParams && body.get('grant_type') === 'refresh_token') {
      const key = body.get('refresh_token') ?? '';
      let pending = refreshing.get(key);
      if (!pending) {
        pending = fetch(url, init);
        refreshing.set(key, pending);
      }
      return (await pending).clone();
    }
    const res = await fetch(url, init);
    if (res.status === 403) await forbidden(res.headers.get('www-authenticate'));
    return res;
  };
}

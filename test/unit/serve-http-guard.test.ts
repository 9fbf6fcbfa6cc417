// The Host/Origin rule of serve --transport http: a loopback bind answers every loopback name on its own port and
// nothing else (DNS rebinding carries a foreign name); a token-protected remote bind answers any name.
import { describe, expect, it } from 'vitest';
import { hostGuard, isLoopback, tokenMatches } from '../../src/serve/http-guard.js';

describe('hostGuard', () => {
  it('bound to 127.0.0.5: its own name, other loopback literals and localhost on the port pass', () => {
    const g = hostGuard('127.0.0.5', 8808);
    for (const h of [
      '127.0.0.5:8808',
      '127.0.0.1:8808',
      '127.9.9.9:8808',
      'localhost:8808',
      'LOCALHOST:8808',
      '[::1]:8808',
    ])
      expect([h, g.host(h)]).toEqual([h, true]);
  });

  it('refuses foreign names, other ports, a missing port, user info and a missing Host', () => {
    const g = hostGuard('127.0.0.5', 8808);
    for (const h of [
      'evil.example:8808',
      '127.0.0.5.nip.io:8808',
      'localhost.evil.example:8808',
      '127.0.0.5:8809',
      '127.0.0.5',
      'evil@127.0.0.5:8808',
      '127.0.0.5:8808/x',
      '',
      undefined,
    ])
      expect([h, g.host(h)]).toEqual([h, false]);
  });

  it('port 80 may be left out of Host, as browsers do', () => {
    expect(hostGuard('127.0.0.1', 80).host('localhost')).toBe(true);
    expect(hostGuard('127.0.0.1', 80).host('evil.example')).toBe(false);
  });

  it('an IPv6 loopback bind answers [::1] and the IPv4 loopback names', () => {
    const g = hostGuard('::1', 9000);
    expect([g.host('[::1]:9000'), g.host('127.0.0.1:9000'), g.host('[::2]:9000')]).toEqual([true, true, false]);
  });

  it('Origin: absent passes; a loopback page on the port passes; other pages, ports and schemes do not', () => {
    const g = hostGuard('127.0.0.5', 8808);
    expect(g.origin(undefined, '127.0.0.5:8808')).toBe(true);
    expect(g.origin('http://127.0.0.5:8808', '127.0.0.5:8808')).toBe(true);
    expect(g.origin('http://localhost:8808', '127.0.0.5:8808')).toBe(true);
    for (const o of [
      'http://evil.example:8808',
      'http://127.0.0.5:9999',
      'null',
      'file://127.0.0.5:8808',
      'https://127.0.0.5',
    ])
      expect([o, g.origin(o, '127.0.0.5:8808')]).toEqual([o, false]);
  });

  it('a remote bind (token required) answers any Host, but a browser Origin must be the page of that Host', () => {
    const g = hostGuard('0.0.0.0', 8808);
    expect(g.host('mcp.internal.example:8808')).toBe(true);
    expect(g.origin('http://mcp.internal.example:8808', 'mcp.internal.example:8808')).toBe(true);
    expect(g.origin('http://evil.example:8808', 'mcp.internal.example:8808')).toBe(false);
  });
});

describe('isLoopback and tokenMatches', () => {
  it('loopback is 127.0.0.0/8, ::1 and localhost, nothing else', () => {
    expect(['127.0.0.1', '127.0.0.5', '::1', '[::1]', 'localhost'].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['0.0.0.0', '10.0.0.1', '128.0.0.1', '::', 'localhost.example'].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('the bearer token must match exactly', () => {
    expect(tokenMatches('Bearer abc123', 'abc123')).toBe(true);
    expect(tokenMatches('bearer  abc123 ', 'abc123')).toBe(true);
    expect(tokenMatches('Bearer abc1234', 'abc123')).toBe(false);
    expect(tokenMatches('Basic abc123', 'abc123')).toBe(false);
    expect(tokenMatches(undefined, 'abc123')).toBe(false);
  });
});

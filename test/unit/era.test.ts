// When a server's refusal of the 2025 handshake sends mcp-smart forward to 2026-07-28, and how sure that is; the
// errors are the SDK v2 client's own classes, shaped as the e2e peers and the conformance servers produce them.
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { eraOf, fallForward, probeFallsBack, probeTimeout } from '../../src/core/connect/era.js';

const http400 = (error: unknown): SdkHttpError =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint', {
    status: 400,
    statusText: 'Bad Request',
    text: JSON.stringify({ jsonrpc: '2.0', id: 0, error }),
  });

describe('fallForward', () => {
  it('-32022 naming 2026-07-28 is a sure verdict, on stdio and in an HTTP 400', () => {
    const data = { supported: ['2026-07-28'], requested: '2025-11-25' };
    expect(fallForward(new ProtocolError(-32022, 'Unsupported protocol version', data))).toEqual({
      version: '2026-07-28',
      sure: true,
    });
    expect(fallForward(http400({ code: -32022, message: 'Unsupported', data }))).toEqual({
      version: '2026-07-28',
      sure: true,
    });
  });

  it('-32022 naming only versions this client does not speak is no way forward', () => {
    expect(fallForward(new ProtocolError(-32022, 'no', { supported: ['2027-01-01'] }))).toBeUndefined();
    expect(fallForward(new ProtocolError(-32022, 'no', {}))).toBeUndefined();
  });

  it('an initialize answered with 2026-07-28 is sure; one answered with a version we do not know is not a way', () => {
    expect(fallForward(new Error("Server's protocol version is not supported: 2026-07-28"))).toEqual({
      version: '2026-07-28',
      sure: true,
    });
    expect(fallForward(new Error("Server's protocol version is not supported: 2099-01-01"))).toBeUndefined();
  });

  it('HTTP 400 -32020 and an unknown initialize (-32601) get a trial', () => {
    const trial = { version: '2026-07-28', sure: false };
    expect(fallForward(http400({ code: -32020, message: 'Missing MCP-Protocol-Version header' }))).toEqual(trial);
    expect(fallForward(new ProtocolError(-32601, 'Method not found: initialize'))).toEqual(trial);
  });

  it('anything else stays in the 2025 era: other errors, other statuses, a body that is not JSON', () => {
    expect(fallForward(new ProtocolError(-32603, 'internal'))).toBeUndefined();
    expect(fallForward(new Error('connect ECONNREFUSED'))).toBeUndefined();
    expect(fallForward(http400('not an object'))).toBeUndefined();
    const notJson = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', {
      status: 400,
      statusText: 'Bad Request',
      text: '<html>',
    });
    expect(fallForward(notJson)).toBeUndefined();
    const notFound = new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', {
      status: 404,
      statusText: 'Not Found',
      text: JSON.stringify({ error: { code: -32022, data: { supported: ['2026-07-28'] } } }),
    });
    expect(fallForward(notFound)).toBeUndefined();
  });
});

describe('eraOf', () => {
  it('2026-07-28 and later are modern, every 2025-era revision legacy', () => {
    expect(['2024-11-05', '2025-06-18', '2025-11-25', '2026-07-28'].map(eraOf)).toEqual([
      'legacy',
      'legacy',
      'legacy',
      'modern',
    ]);
  });
});

describe('probeFallsBack (a failed server/discover probe over Streamable HTTP)', () => {
  it('a 500, a dropped connection or a probe timeout gets the 2025 handshake', () => {
    const status500 = new SdkHttpError(SdkErrorCode.EraNegotiationFailed, 'HTTP 500', { status: 500, text: '<h1>' });
    const closed = new SdkError(SdkErrorCode.EraNegotiationFailed, 'probe failed: fetch failed', undefined, {
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } }),
    });
    const timeout = new SdkError(SdkErrorCode.RequestTimeout, 'Version negotiation probe timed out after 10ms');
    expect([status500, closed, timeout].map((e) => probeFallsBack(e))).toEqual([true, true, true]);
  });

  it('a plain 401 or 403 with no OAuth in play (static headers) gets the 2025 handshake, whose error quotes the server', () => {
    const unauthorized = new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, 'HTTP 401', { status: 401 });
    const forbidden = new SdkHttpError(SdkErrorCode.ClientHttpForbidden, 'HTTP 403', { status: 403 });
    expect([unauthorized, forbidden].map((e) => probeFallsBack(e, false))).toEqual([true, true]);
    expect([unauthorized, forbidden].map((e) => probeFallsBack(e, true))).toEqual([false, false]);
    expect(probeFallsBack(new UnauthorizedError(), false)).toBe(false);
  });

  it('an authorization answer or nothing listening does not', () => {
    const refused = new SdkError(SdkErrorCode.EraNegotiationFailed, 'probe failed', undefined, {
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } }),
    });
    const issuer = Object.defineProperty(new Error('Issuer mismatch'), Symbol.for('mcp.authSeamEscape'), {
      value: true,
    });
    const forbidden = new SdkHttpError(SdkErrorCode.ClientHttpForbidden, 'HTTP 403', { status: 403 });
    expect([refused, issuer, forbidden, new UnauthorizedError()].map((e) => probeFallsBack(e))).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('the probe gets a third of the start-up time, at least 500 ms', () => {
    expect([probeTimeout(30_000), probeTimeout(900)]).toEqual([10_000, 500]);
  });
});

// The error catalog: an internal error carries a prefilled bug-report link without the user's home path.
import { describe, expect, it } from 'vitest';
import { SmartError, bugReportUrl, ISSUES_URL } from '../../src/process/errors.js';
import { malformedToolsNotes } from '../../src/core/tool-validate.js';

describe('internal errors', () => {
  it('link to a new issue with title and body filled from the error, version, Node and platform', () => {
    const e = new TypeError('cannot read x of undefined at /home/ada/project/mcp.json\nsecond line');
    const url = new URL(bugReportUrl(e, { version: '0.1.0', node: 'v20.20.2', platform: 'linux', home: '/home/ada' }));
    expect(`${url.origin}${url.pathname}`).toBe(ISSUES_URL);
    expect(url.searchParams.get('title')).toBe(
      'Internal error: TypeError: cannot read x of undefined at ~/project/mcp.json',
    );
    const body = url.searchParams.get('body')!;
    expect(body).toContain('TypeError: cannot read x of undefined at ~/project/mcp.json');
    expect(body).toContain('mcp-smart 0.1.0, Node v20.20.2, linux');
    expect(url.toString()).not.toContain('ada');
    expect(body).not.toContain('second line');
  });

  it('the INTERNAL message ends with the link; catalog entries carry a cause and a docs anchor', () => {
    const err = new SmartError('INTERNAL', { message: 'boom', report: 'https://example.test/new' });
    expect(err.message).toBe(
      'Internal error: boom\nThis is a bug in mcp-smart. Please file an issue with the command you ran and the output of --debug: https://example.test/new',
    );
    expect(err.why).toContain('bug');
    expect(new SmartError('USAGE', { kind: 'write-needs-tune' }).docs).toBe('#commands');
    expect(new SmartError('USAGE', { kind: 'write-needs-tune' }).message).toBe(
      '--write stores tuned weights, so it needs --tune.',
    );
  });
});

describe('counts in messages take the noun in number', () => {
  it('one kept tool and one malformed entry are singular; more are plural', () => {
    expect(new SmartError('CONNECT_MALFORMED_TOOLS', { count: 1, details: '#2: no name', kept: 1 }).message).toBe(
      'tools/list returned 1 malformed tool entry (#2: no name); the 1 well-formed tool was kept',
    );
    expect(new SmartError('CONNECT_MALFORMED_TOOLS', { count: 2, details: '…', kept: 3 }).message).toBe(
      'tools/list returned 2 malformed tool entries (…); the 3 well-formed tools were kept',
    );
    const one = { tools: [{ name: 'fine', inputSchema: { type: 'object' } }], problems: ['#2: no name'], remarks: [] };
    expect(malformedToolsNotes(one, 'the cached tool list', 'holds')).toEqual([
      'the cached tool list holds 1 malformed tool entry (#2: no name); the 1 well-formed tool was kept',
    ]);
  });
});

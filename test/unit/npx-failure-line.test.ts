// A failing `npx` server is quoted by the line that says what failed, not by npm's closing advice or log path.
import { describe, expect, it } from 'vitest';
import { meaningfulStderrLine } from '../../src/core/connect/failure-text.js';

// What `npx --yes <missing package>` printed on this machine (npm 11), with the log path shortened.
const NPX_404 = `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-does-not-exist-zz
npm error 404
npm error 404  The requested resource '@modelcontextprotocol/server-does-not-exist-zz@*' could not be found or you do not have permission to access it.
npm error 404
npm error 404 Note that you can also install from a
npm error 404 tarball, folder, http url, or git url.
npm notice
npm notice New minor version of npm available! 11.19.1 -> 11.21.2
npm notice Changelog: https://github.com/npm/cli/releases/tag/v11.21.2
npm notice To update run: npm install -g npm@11.21.2
npm notice
npm error A complete log of this run can be found in: /tmp/npm-cache/_logs/2026-11-24T15_21_08_408Z-debug-0.log
`;

describe('meaningfulStderrLine on npx output', () => {
  it('names the 404 from the registry', () => {
    expect(meaningfulStderrLine(NPX_404)).toBe(
      'npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-does-not-exist-zz',
    );
  });

  it('without the registry line, the line saying what could not be found, not the advice after it', () => {
    const withoutGet = NPX_404.split('\n')
      .filter((l) => !l.includes(' - GET '))
      .join('\n');
    expect(meaningfulStderrLine(withoutGet)).toBe(
      "npm error 404 The requested resource '@modelcontextprotocol/server-does-not-exist-zz@*' could not be found or you do not have permission to access it.",
    );
  });
});

// What serve's start loads: a stdio serve (the start every client makes) answers and forwards a call without ever
// loading the token checks of `serve --transport http --issuer` (`jose`, src/serve/auth/verify.ts) or the ranking
// engine (core/discover's index and rankings, loaded by the first find_tool): in a fresh HOME they cost its start
// ~9 and ~14 ms of compiling. The same detectors see them on an HTTP serve with an issuer, and after a find_tool.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, REPO } from '../helpers/paths.js';
import { gone, recordedImports } from '../helpers/recorded-imports.js';
import { connectServeStdio, node, sandbox, startServeHttp, textOf, type Sandbox } from './serve-harness.js';

let box: Sandbox;
let config: string;

beforeAll(async () => {
  box = await sandbox('serve-start-modules');
  config = await box.config('servers.json', {
    tiny: node(fixture('servers', 'catalog-server.mjs'), fixture('servers', 'catalogs', 'tiny.json')),
  });
});
afterAll(async () => box.remove());

const recording = (label: string) => recordedImports(box.dir, box.env, label);

/** Files holding jose's code: its package, or a bundle chunk with one of its error codes (names are minified). */
const joseCode = (files: string[]): string[] =>
  files.filter(
    (f) =>
      f.includes(`${join('node_modules', 'jose')}`) ||
      (f.startsWith(REPO) && readFileSync(f, 'utf8').includes('ERR_JWKS_NO_MATCHING_KEY')),
  );

/** Files holding the ranking engine: a bundle chunk with the re-ranker's feature names (kept as strings). */
const engineCode = (files: string[]): string[] =>
  files.filter((f) => f.startsWith(REPO) && readFileSync(f, 'utf8').includes('destructiveConflict'));

describe("serve's start path", () => {
  it('over stdio lists and calls without the token checks or the engine; find_tool loads the engine, --issuer the checks', async () => {
    const stdio = recording('stdio');
    const serve = await connectServeStdio(stdio.env, ['--config', config, '--mode', 'tools', '--no-learn']);
    const listed = await serve.client.listTools();
    expect(listed.tools.length).toBeGreaterThan(0);
    const call = await serve.client.callTool({ name: listed.tools[0]!.name, arguments: {} });
    expect(textOf(call)).not.toBe('');
    const pid = serve.transport.pid;
    await serve.client.close();
    await gone(pid);
    const loaded = stdio.files();
    expect(loaded.some((f) => f.endsWith(join('bundle', 'cli.js')))).toBe(true);
    expect(joseCode(loaded)).toEqual([]);
    expect(engineCode(loaded)).toEqual([]);

    // meta mode: the first find_tool loads the engine (and answers).
    const meta = recording('meta');
    const finder = await connectServeStdio(meta.env, ['--config', config, '--mode', 'meta', '--no-learn']);
    const found = await finder.client.callTool({ name: 'find_tool', arguments: { intent: 'delete a note' } });
    expect(textOf(found)).toContain('tiny.');
    const finderPid = finder.transport.pid;
    await finder.client.close();
    await gone(finderPid);
    expect(engineCode(meta.files()).length).toBeGreaterThan(0);

    // Nothing is fetched from the issuer before a token arrives: a URL no one answers is enough to start.
    const http = recording('http');
    const gateway = await startServeHttp(http.env, [
      '--config',
      config,
      '--mode',
      'tools',
      '--no-learn',
      '--port',
      '0',
      '--issuer',
      'https://id.example.invalid',
    ]);
    await gateway.stop();
    expect(joseCode(http.files()).length).toBeGreaterThan(0);
  }, 60_000);
});

// serve.auth: its validation names the key and what to write; the per-user and per-group tool filters (deny wins,
// every applying rule must let a tool through, `*` globs over "server.tool" ids) name the rule that refuses; the
// audit log writes argument names only, 0600, in order.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { identityRefusal, identityServerRefusal } from '../../src/core/config/identity-filter.js';
import { validateSmartConfig } from '../../src/core/config/validate.js';
import { DEFAULT_WEIGHTS } from '../../src/core/discover/weights.js';
import { AuditLog, argumentNames } from '../../src/serve/auth/audit.js';
import { serveIdentity } from '../../src/serve/auth/setup.js';
import { issuerVerifier } from '../../src/serve/auth/verify.js';
import type { ServeAuthConfig } from '../../src/core/types.js';

const validate = (auth: unknown) => validateSmartConfig({ serve: { auth } }, DEFAULT_WEIGHTS);

describe('serve.auth validation', () => {
  it('accepts the documented block as written', () => {
    const auth = {
      issuer: 'https://id.example.com',
      audience: 'https://gw.example.com/mcp',
      scopes: ['mcp'],
      groupsClaim: 'roles',
      jwksUri: 'https://id.example.com/jwks',
      users: { 'ci-bot': { includeTools: ['github.get_*'] } },
      groups: { contractors: { excludeTools: ['github.delete_*'] } },
    };
    const { config, issues } = validate(auth);
    expect(issues).toEqual([]);
    expect(config.serve?.auth).toEqual(auth);
  });

  it('names each bad key and says what it expects', () => {
    const { issues } = validate({
      issuer: 'id.example.com',
      scopes: 'mcp',
      groups: { readers: { exclude: ['x'] }, writers: { includeTools: [3] } },
      users: [],
      audiance: 'https://x',
    });
    expect(issues).toEqual([
      {
        key: 'serve.auth.issuer',
        reason: 'expected the token issuer as an http(s) URL, e.g. "https://id.example.com".',
      },
      {
        key: 'serve.auth.scopes',
        reason: 'expected an array of scope names (strings without spaces or quotes), got a string.',
      },
      { key: 'serve.auth.audiance', reason: expect.stringContaining('"audience"') as string },
      { key: 'serve.auth.users', reason: 'expected an object keyed by token subject, got an array.' },
      {
        key: 'serve.auth.groups.readers.exclude',
        reason: 'unknown key "exclude". Known keys here: excludeTools, includeTools. Remove it or fix its name.',
      },
      {
        key: 'serve.auth.groups.writers.includeTools',
        reason: 'expected an array of tool ids or patterns ("server.tool", "server.*"), got an array.',
      },
    ]);
  });
});

describe('per-user and per-group tool filters', () => {
  const auth: ServeAuthConfig = {
    issuer: 'https://id.example.com',
    users: { carol: { includeTools: ['notes.*', 'clock.now'] } },
    groups: {
      readers: { excludeTools: ['notes.delete_*'] },
      auditors: { includeTools: ['notes.search_*'] },
    },
  };

  it('lets through what no applying rule refuses', () => {
    expect(identityRefusal(auth, { subject: 'dave', groups: [] }, 'notes.delete_note')).toBeUndefined();
    expect(identityRefusal(auth, { subject: 'dave', groups: ['readers'] }, 'notes.search_notes')).toBeUndefined();
    expect(identityRefusal(auth, undefined, 'notes.delete_note')).toBeUndefined();
    expect(identityRefusal(undefined, { subject: 'carol', groups: [] }, 'github.x')).toBeUndefined();
  });

  it("names the rule that refuses: the user's own first, then each group's", () => {
    expect(identityRefusal(auth, { subject: 'dave', groups: ['readers'] }, 'notes.delete_note')).toBe(
      'serve.auth.groups.readers.excludeTools',
    );
    expect(identityRefusal(auth, { subject: 'carol', groups: ['readers'] }, 'github.create_issue')).toBe(
      'serve.auth.users.carol.includeTools',
    );
    // Carol's own list allows every notes tool; her group still denies deleting (deny wins).
    expect(identityRefusal(auth, { subject: 'carol', groups: ['readers'] }, 'notes.delete_all')).toBe(
      'serve.auth.groups.readers.excludeTools',
    );
    // Every applying allow list must hold the tool.
    expect(identityRefusal(auth, { subject: 'carol', groups: ['auditors'] }, 'notes.create_note')).toBe(
      'serve.auth.groups.auditors.includeTools',
    );
  });

  it('matches `*` as any run of characters and everything else literally', () => {
    const dots: ServeAuthConfig = { groups: { g: { excludeTools: ['a.b*'] } } };
    expect(identityRefusal(dots, { subject: 's', groups: ['g'] }, 'a.bc')).toBe('serve.auth.groups.g.excludeTools');
    expect(identityRefusal(dots, { subject: 's', groups: ['g'] }, 'aXbc')).toBeUndefined();
    // A subject or group named like an Object property is only a name.
    expect(identityRefusal(dots, { subject: 'constructor', groups: ['__proto__'] }, 'a.bc')).toBeUndefined();
  });

  it("refuses a server's prompts and resources only where a rule refuses every tool id it could have", () => {
    const rules: ServeAuthConfig = {
      users: { erin: { includeTools: ['no*.search_*', 'clock.now'] }, frank: { includeTools: ['*_issue'] } },
      groups: { contractors: { excludeTools: ['vault.*', 'notes.delete_*'] }, nobody: { excludeTools: ['*'] } },
    };
    const server = (subject: string, groups: string[], name: string) =>
      identityServerRefusal(rules, { subject, groups }, name);
    // An exclude pattern covering "vault.*" refuses the server; one covering some of notes' tools does not.
    expect(server('dave', ['contractors'], 'vault')).toBe('serve.auth.groups.contractors.excludeTools');
    expect(server('dave', ['contractors'], 'notes')).toBeUndefined();
    expect(server('dave', ['contractors'], 'vaults')).toBeUndefined();
    expect(server('dave', ['nobody'], 'notes')).toBe('serve.auth.groups.nobody.excludeTools');
    // An include list refuses the servers none of its patterns can name a tool of.
    expect(server('erin', [], 'notes')).toBeUndefined();
    expect(server('erin', [], 'nova')).toBeUndefined();
    expect(server('erin', [], 'clock')).toBeUndefined();
    expect(server('erin', [], 'github')).toBe('serve.auth.users.erin.includeTools');
    expect(server('frank', [], 'github')).toBeUndefined();
    // The tool-level answer agrees on every id of a refused server.
    for (const id of ['vault.read', 'vault.', 'vault.a.b'])
      expect(identityRefusal(rules, { subject: 'dave', groups: ['contractors'] }, id)).toBe(
        'serve.auth.groups.contractors.excludeTools',
      );
    expect(identityServerRefusal(rules, undefined, 'vault')).toBeUndefined();
    expect(identityServerRefusal(undefined, { subject: 'dave', groups: ['contractors'] }, 'vault')).toBeUndefined();
  });
});

describe('identity settings from flags and serve.auth', () => {
  const log = (): void => undefined;
  it('needs an issuer for serve.auth, and refuses it beside --token-env', () => {
    expect(() => serveIdentity({}, { scopes: ['mcp'] }, { configFile: '/p/mcp-smart.config.json', log })).toThrow(
      '/p/mcp-smart.config.json: serve.auth.issuer: missing: serve.auth needs the issuer whose access tokens are accepted (or pass --issuer <url>).',
    );
    expect(() => serveIdentity({ issuer: 'https://id.example.com' }, undefined, { tokenEnv: 'TOK', log })).toThrow(
      /--token-env.*A fixed token and an issuer exclude each other/,
    );
    expect(() => serveIdentity({ issuer: 'ftp://id' }, undefined, { log })).toThrow(/--issuer.*http\(s\) URL/);
    expect(() => serveIdentity({ audience: 'https://gw/mcp' }, undefined, { log })).toThrow(/--audience.*--issuer/);
    expect(serveIdentity({}, undefined, { log })).toBeUndefined();
  });

  it('takes the flags over the config, and the bound URL as the default audience', () => {
    const id = serveIdentity({ issuer: 'https://a.example' }, { issuer: 'https://b.example', scopes: ['x'] }, { log });
    expect(id?.issuer).toBe('https://a.example');
    expect(id?.gate('http://127.0.0.1:5000/mcp', issuerVerifier).metadataUrl).toBe(
      'http://127.0.0.1:5000/.well-known/oauth-protected-resource/mcp',
    );
    const fixed = serveIdentity({ audience: 'https://gw.example/team/mcp' }, { issuer: 'https://b.example' }, { log });
    expect(fixed?.gate('http://127.0.0.1:5000/mcp', issuerVerifier).metadataUrl).toBe(
      'https://gw.example/.well-known/oauth-protected-resource/team/mcp',
    );
  });
});

describe('audit log', () => {
  it('appends one line per call with argument names only, in a 0600 file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcp-smart-audit-'));
    try {
      const file = join(dir, 'audit.jsonl');
      let t = Date.UTC(2026, 10, 29, 12, 0, 0);
      const log = new AuditLog(
        file,
        () => undefined,
        () => t++,
      );
      await log.open();
      log.record({
        subject: 's1',
        groups: ['g'],
        tool: 'echo',
        outcome: 'ok',
        durationMs: 3,
        arguments: argumentNames({ message: 'secret-value', a: 1 }),
      });
      log.record({
        tool: 'call_tool',
        target: 'x.y',
        outcome: 'refused',
        rule: 'serve.auth.groups.g.excludeTools',
        durationMs: 0,
        arguments: argumentNames('not-an-object'),
      });
      await log.flush();
      const text = await readFile(file, 'utf8');
      expect(text).toBe(
        '{"time":"2026-11-29T12:00:00.000Z","subject":"s1","groups":["g"],"tool":"echo","outcome":"ok","durationMs":3,"arguments":["a","message"]}\n' +
          '{"time":"2026-11-29T12:00:00.001Z","tool":"call_tool","target":"x.y","outcome":"refused","rule":"serve.auth.groups.g.excludeTools","durationMs":0,"arguments":[]}\n',
      );
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

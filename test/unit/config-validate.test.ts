import { describe, expect, it } from 'vitest';
import { loadServerDefinitions } from '../../src/core/config/index.js';
import { closestKey, formatKeyPath, knownNames } from '../../src/core/config/key-path.js';
import { validateSmartConfig } from '../../src/core/config/validate.js';
import { DEFAULT_WEIGHTS } from '../../src/core/discover/weights.js';
import { SmartError } from '../../src/process/errors.js';
import { CONFIGS, request } from '../helpers/config-request.js';

async function failure(dir: string, extra: Parameters<typeof request>[0] = {}): Promise<SmartError> {
  const err = await loadServerDefinitions(request({ cwd: CONFIGS(dir), ...extra })).catch((e: unknown) => e);
  if (!(err instanceof SmartError)) throw new Error(`expected a SmartError from ${dir}, got ${String(err)}`);
  return err;
}

describe('key paths and suggestions', () => {
  it('formats dotted paths with brackets where needed', () => {
    expect(formatKeyPath(['mcpServers', 'github', 'args', 1])).toBe('mcpServers.github.args[1]');
    expect(formatKeyPath(['projects', '/p/x', 'mcpServers'])).toBe('projects["/p/x"].mcpServers');
    expect(formatKeyPath(['mcpServers', 'sequential-thinking'])).toBe('mcpServers.sequential-thinking');
  });

  it('suggests the closest key within reach only', () => {
    expect(closestKey('treshold', ['thresholds', 'budget'])).toBe('thresholds');
    expect(closestKey('zzzzzz', ['thresholds', 'budget'])).toBeUndefined();
  });
});

describe('syntax errors name the file, line and column', () => {
  it('bad JSON', async () => {
    const err = await failure('bad-json');
    expect(err.code).toBe('FILE_PARSE');
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe(
      `${CONFIGS('bad-json', '.mcp.json')} is not valid JSON: line 4, column 5: expected ",". Fix the file and run again.`,
    );
  });

  it('bad TOML', async () => {
    const err = await failure('bad-toml', { configFiles: [CONFIGS('bad-toml', 'config.toml')] });
    expect(err.code).toBe('FILE_PARSE');
    expect(err.message).toContain(`${CONFIGS('bad-toml', 'config.toml')} is not valid TOML: line 4, column 1`);
  });
});

describe('client entries with wrong types give the key path', () => {
  it.each([
    ['bad-args', 'mcpServers.github.args[1]', 'expected a string, got a number'],
    ['bad-env', 'mcpServers.github.env.GITHUB_TOKEN', 'expected a string, got a number'],
    ['bad-type', 'mcpServers.weird.type', 'unknown transport "websocket"'],
    ['no-command', 'mcpServers.empty', 'needs "command" (a stdio server) or "url"'],
    ['empty-command', 'mcpServers.blank.command', 'is empty: name the program to start'],
    ['command-and-url', 'mcpServers.both', 'has both "command" (a stdio server) and "url" (an HTTP server)'],
  ])('%s → %s', async (dir, key, reason) => {
    const err = await failure(dir);
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.details.key).toBe(key);
    expect(err.message.startsWith(`${CONFIGS(dir, '.mcp.json')}: ${key}: `)).toBe(true);
    expect(err.message).toContain(reason);
  });

  it('command-and-url-typed: "type" decides, and the key it leaves unused is named in a warning', async () => {
    const r = await loadServerDefinitions(request({ cwd: CONFIGS('command-and-url-typed') }));
    expect(r.servers.map((d) => [d.name, d.transport])).toEqual([['both', 'http']]);
    expect(r.warnings).toContain(
      `${CONFIGS('command-and-url-typed', '.mcp.json')}: mcpServers.both.command: ignored: "type" is "http".`,
    );
  });

  it('never puts a wrongly typed env value into the message', async () => {
    const err = await failure('bad-env');
    expect(err.message).not.toContain('12345678');
  });

  it('an unrecognised --config file is CONFIG_UNKNOWN_SHAPE', async () => {
    const err = await failure('unknown-shape', { configFiles: [CONFIGS('unknown-shape', 'settings.json')] });
    expect(err.code).toBe('CONFIG_UNKNOWN_SHAPE');
    expect(err.message).toContain(CONFIGS('unknown-shape', 'settings.json'));
  });

  it('a missing --config file is FILE_NOT_FOUND', async () => {
    const err = await failure('project-empty', { configFiles: ['nope.json'] });
    expect(err.code).toBe('FILE_NOT_FOUND');
    expect(err.message).toContain(CONFIGS('project-empty', 'nope.json'));
  });

  it('unknown keys in a client entry are fine', async () => {
    const r = await loadServerDefinitions(request({ home: CONFIGS('home-linux') }));
    expect(r.servers.find((s) => s.name === 'cline-server')?.enabled).toBe(true);
  });
});

describe('our own config is validated strictly', () => {
  it.each([
    ['unknown-key', 'treshold', 'unknown key "treshold". Did you mean "thresholds"?'],
    ['unknown-nested-key', 'budget.shares', 'unknown key "shares". Did you mean "share"?'],
    ['bad-budget', 'budget.share', 'expected a fraction above 0 and at most 1 (e.g. 0.1), got 2.'],
    ['bad-pattern', 'patterns.rules[1].match', 'not a regular expression the linear-time engine (RE2) accepts'],
    ['bad-weights', 'weights.fusion.bm25x', 'unknown key "bm25x". Did you mean "bm25"?'],
    ['bad-keywords', 'keywords["github.create_issue"][1]', 'expected a string, got a number.'],
  ])('%s → %s', async (dir, key, reason) => {
    const err = await failure(dir);
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.message).toContain(`${CONFIGS(dir, 'mcp-smart.config.json')}: ${key}: ${reason}`);
  });

  it('collects every issue, with weight leaves checked as numbers', () => {
    const r = validateSmartConfig(
      { weights: { fusion: { bm25x: 1 }, bm25: { k1: 'high', fields: 3 } }, cache: { ttlSeconds: -1 } },
      DEFAULT_WEIGHTS,
    );
    expect(r.issues.map((i) => i.key)).toEqual([
      'weights.fusion.bm25x',
      'weights.bm25.k1',
      'weights.bm25.fields',
      'cache.ttlSeconds',
    ]);
  });

  it('accepts $schema and maxGrowth as tokens', () => {
    const r = validateSmartConfig({ $schema: 'x', thresholds: { maxGrowth: 500, max: 9000 } }, DEFAULT_WEIGHTS);
    expect(r.issues).toEqual([]);
    expect(r.config).toEqual({ thresholds: { maxGrowth: 500, max: 9000 } });
  });
});

describe('knownNames (the details of "No server named …")', () => {
  const many = Array.from({ length: 111 }, (_, i) => `server-${String(i).padStart(3, '0')}`);

  it('suggests the name within a typo, else the first that holds the word, else none', () => {
    expect(knownNames('airtabel', ['airbnb', 'airtable', 'amap']).guess).toBe('airtable');
    expect(knownNames('github', ['gitlab-archived', 'github-archived']).guess).toBe('github-archived');
    expect(knownNames('zzzzzzzz', ['airbnb', 'airtable']).guess).toBeUndefined();
    expect(knownNames('ab', ['xxabxx']).guess).toBeUndefined(); // too short to look for inside names
  });

  it('lists the names sorted and once, cut after 20 with how many more', () => {
    expect(knownNames('x', ['b', 'a', 'b']).known).toBe('a, b');
    expect(knownNames('x', []).known).toBe('(none)');
    const { known } = knownNames('x', [...many].reverse());
    expect(known.split(', ')).toHaveLength(21);
    expect(known.startsWith('server-000, server-001,')).toBe(true);
    expect(known.endsWith('server-019, … 91 more')).toBe(true);
  });
});

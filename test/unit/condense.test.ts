// Condense levels: each lossless rule (and where it must not apply), compact prose, signatures, meta.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  condenseTool,
  condenseTools,
  firstSentence,
  metaTools,
  repeatsName,
  shortenProse,
  toolSignature,
} from '../../src/core/condense/index.js';
import type { JsonObject, Snapshot, ToolSnapshot } from '../../src/core/types.js';
import { fixture } from '../helpers/paths.js';

const load = (name: string): ToolSnapshot[] =>
  (JSON.parse(readFileSync(fixture('snapshots', `${name}.json`), 'utf8')) as Snapshot).servers.flatMap((s) => s.tools);
const cases = new Map(load('lossless-cases').map((t) => [t.name, t]));
const searchNotes = load('audit-findings')[0]!;
const lossless = (name: string): JsonObject => condenseTool(cases.get(name)!, 'lossless').inputSchema!;
const props = (s: JsonObject): Record<string, JsonObject> => s.properties as Record<string, JsonObject>;

describe('lossless', () => {
  it('search_notes: drops $schema, $comment, titles that repeat names, and folds anyOf of bare types', () => {
    const s = condenseTool(searchNotes, 'lossless').inputSchema!;
    expect(s).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for in titles and bodies, e.g. groceries or plans.' },
        limit: { type: 'integer', description: 'The limit', default: 10, minimum: 1, maximum: 100 },
        sort: { enum: ['newest', 'oldest', 'relevance'], description: 'Sort order of the results.' },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }], default: null },
        archived: { type: ['boolean', 'null'] },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('keeps the tool description and the tool-level fields', () => {
    const t = condenseTool(searchNotes, 'lossless');
    expect(t.description).toBe(searchNotes.description);
    expect(t.title).toBe('Search notes');
  });

  it('draft2020_tuple / draft07_tuple / ref_with_sibling / unevaluated: $schema stays where the dialect matters', () => {
    expect(lossless('draft2020_tuple').$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(lossless('draft07_tuple').$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(lossless('ref_with_sibling').$schema).toBe('http://json-schema.org/draft-07/schema#');
    // additionalProperties: true marks properties evaluated in 2020-12, so it must stay here.
    expect(lossless('unevaluated').allOf).toEqual([
      { properties: { a: { type: 'string' } }, additionalProperties: true },
    ]);
  });

  it('one_of_numbers / any_of_with_type: only anyOf of bare types without a sibling type is folded', () => {
    expect(props(lossless('one_of_numbers')).n).toEqual({ oneOf: [{ type: 'integer' }, { type: 'number' }] });
    expect(props(lossless('any_of_with_type')).v).toEqual({
      type: 'string',
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
  });

  it('enum_mixed: type beside enum/const goes only when every value has that type', () => {
    const p = props(lossless('enum_mixed'));
    expect(p.m).toEqual({ type: 'string', enum: ['a', 'b', 1, null] });
    expect(p.k).toEqual({ enum: [1, 2, 3] });
    expect(p.c).toEqual({ const: 3 });
  });

  it('title_property: properties named title/required/enum survive; duplicate required entries stay', () => {
    const s = lossless('title_property');
    expect(s.title).toBeUndefined();
    expect(props(s)).toEqual({ title: { type: 'string' }, required: { type: 'boolean' }, enum: { type: 'string' } });
    expect(s.required).toEqual(['title', 'title']);
    expect('additionalProperties' in s).toBe(false);
  });

  it('items_any: items {} , additionalProperties true and required [] are dropped', () => {
    expect(props(lossless('items_any'))).toEqual({ list: { type: 'array', minItems: 1 }, bag: { type: 'object' } });
  });

  it('does not modify its input', () => {
    const before = JSON.stringify(searchNotes);
    condenseTool(searchNotes, 'lossless');
    condenseTool(searchNotes, 'compact');
    expect(JSON.stringify(searchNotes)).toBe(before);
  });
});

describe('compact', () => {
  it('keeps properties, types, enums, defaults and required; shortens prose; drops name-repeating descriptions', () => {
    const t = condenseTool(searchNotes, 'compact');
    expect(t.description).toBe("Search the user's notes by keyword.");
    const p = props(t.inputSchema!);
    expect(Object.keys(p)).toEqual(['query', 'limit', 'sort', 'tags', 'archived']);
    expect(p.query!.description).toBe('Words to look for in titles and bodies, e.g. groceries or plans.');
    expect(p.limit).toEqual({ type: 'integer', default: 10, minimum: 1, maximum: 100 });
    expect(p.sort!.enum).toEqual(['newest', 'oldest', 'relevance']);
    expect(t.inputSchema!.required).toEqual(['query']);
  });

  it('first sentence: abbreviations and decimals do not end it; CJK full stops do', () => {
    expect(firstSentence('Use e.g. a path. Then more.')).toBe('Use e.g. a path.');
    expect(firstSentence('Version 1.5 is used. Next.')).toBe('Version 1.5 is used.');
    expect(firstSentence('使用必应搜索。返回结果')).toBe('使用必应搜索。');
    expect(firstSentence('First line\n\nSecond paragraph.')).toBe('First line');
    expect(shortenProse('word '.repeat(100), 30)).toBe('word word word word word…');
  });

  it('keeps a deprecation or "use X instead" notice that is not in the first sentence', () => {
    const d = 'Search issues with many filters. Supports paging.\n\nDEPRECATED: use search_issues_v2 instead.';
    expect(shortenProse(d, 200)).toBe('Search issues with many filters. DEPRECATED: use search_issues_v2 instead.');
    expect(shortenProse('Lists files. Prefer `list_dir` — use list_dir instead. Globs.', 200)).toBe(
      'Lists files. Prefer `list_dir` — use list_dir instead.',
    );
    expect(shortenProse('This tool is no longer supported. It reads files.', 200)).toBe(
      'This tool is no longer supported.',
    );
    expect(shortenProse('Lists files. Supports globbing; use it instead of find.', 200)).toBe(
      'Lists files. Supports globbing; use it instead of find.',
    );
    expect(shortenProse('Lists files. Supports globbing.', 200)).toBe('Lists files.');
    const tool = { name: 'old', description: d, inputSchema: { type: 'object' } };
    expect(condenseTool(tool, 'compact').description).toContain('DEPRECATED: use search_issues_v2 instead.');
    expect(condenseTool(tool, 'minimal').description).toContain('DEPRECATED: use search_issues_v2 instead.');
  });

  it('repeatsName: "The path" repeats `path`; "Path to read" does not', () => {
    expect(repeatsName('The path', 'path')).toBe(true);
    expect(repeatsName('Num results', 'num_results')).toBe(true);
    expect(repeatsName('Path to read', 'path')).toBe(false);
  });
});

describe('minimal, names, meta', () => {
  it('toolSignature: required first, optional marked, enums and unions spelled out', () => {
    expect(toolSignature(searchNotes)).toBe(
      'search_notes(query: string, limit?: integer, sort?: "newest"|"oldest"|"relevance", tags?: string[]|null, archived?: boolean|null)',
    );
    expect(toolSignature({ name: 'ping' })).toBe('ping()');
  });

  it('minimal: the signature and a one-line summary in the description, an open object schema', () => {
    expect(condenseTool(searchNotes, 'minimal')).toEqual({
      name: 'search_notes',
      description:
        '(query: string, limit?: integer, sort?: "newest"|"oldest"|"relevance", tags?: string[]|null, archived?: boolean|null) Search the user\'s notes by keyword.',
      inputSchema: { type: 'object' },
    });
  });

  it('minimal adds nothing the tool did not have: no "()" without arguments, no schema where none was sent', () => {
    expect(
      condenseTool({ name: 'ping', description: 'Ping.', inputSchema: { type: 'object', properties: {} } }, 'minimal'),
    ).toEqual({ name: 'ping', description: 'Ping.', inputSchema: { type: 'object' } });
    expect(condenseTool({ name: 'ping', description: 'Ping.' }, 'minimal')).toEqual({
      name: 'ping',
      description: 'Ping.',
    });
    expect(condenseTool({ name: 'ping' }, 'minimal')).toEqual({ name: 'ping' });
  });

  it('names: the name only', () => {
    expect(condenseTool(searchNotes, 'names')).toEqual({ name: 'search_notes', inputSchema: { type: 'object' } });
  });

  it('meta: the meta-tools replace every tool, with full schemas', () => {
    const meta = condenseTools([searchNotes, searchNotes], 'meta');
    expect(meta.map((t) => t.name)).toEqual([
      'find_tool',
      'describe_tool',
      'list_tools',
      'call_tool',
      'call_tool_read',
    ]);
    expect(meta).toEqual(metaTools());
    expect(meta.every((t) => t.inputSchema?.type === 'object' && typeof t.description === 'string')).toBe(true);
    expect(meta[3]!.inputSchema!.required).toEqual(['name']);
  });
});

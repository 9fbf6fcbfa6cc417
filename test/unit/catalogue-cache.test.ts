import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeCatalogue, encodeCatalogue, leanServer } from '../../src/app/services/catalogue/payload.js';
import { PARAM_TEXT, paramText } from '../../src/core/discover/bm25.js';
import { PARAM_NAMES, joinedParams, joinedTopParams, topParams } from '../../src/core/discover/param-names.js';
import { fixture } from '../helpers/paths.js';
import type { ServerSnapshot, Snapshot, ToolSnapshot } from '../../src/core/types.js';

const servers: ServerSnapshot[] = [
  {
    name: 'notes',
    transport: 'stdio',
    status: 'ok',
    instructions: 'Keeps notes.',
    notes: ['a note'],
    prompts: [{ name: 'p' }] as never,
    tools: [
      {
        name: 'add_note',
        title: 'Add a note',
        description: 'Adds a note – with “curly” quotes and an emoji 📝',
        inputSchema: {
          type: 'object',
          properties: { text: { type: 'string', description: 'The note' }, tags: { type: 'array' } },
        },
        annotations: { destructiveHint: false },
      },
      { name: 'bare', inputSchema: { type: 'object' } },
      // A lone surrogate (JSON.parse makes one from "\ud800"): UTF-8 would turn it into U+FFFD.
      { name: 'odd', description: 'half \ud800 a pair', inputSchema: { type: 'object' } },
      { name: 'latin', description: 'café, naïve', inputSchema: { type: 'object', properties: { 'über-name': {} } } },
    ],
  },
  { name: 'down', transport: 'http', status: 'error', error: 'refused', tools: [] },
];

describe('catalogue start cache payload', () => {
  it('reads back every server field and each tool cut to name, title, description, annotations and its params text', () => {
    const lean = decodeCatalogue(encodeCatalogue(servers, 'd1'))!;
    expect(lean.digest).toBe('d1');
    expect(lean.servers.map(({ tools: _t, ...rest }) => rest)).toEqual(servers.map(({ tools: _t, ...rest }) => rest));
    lean.servers.forEach((s, i) =>
      s.tools.forEach((t, j) => {
        const full = servers[i]!.tools[j]!;
        const { inputSchema: _schema, ...kept } = full;
        const {
          [PARAM_TEXT]: _params,
          [PARAM_NAMES]: _names,
          ...named
        } = t as ToolSnapshot & { [PARAM_TEXT]: string; [PARAM_NAMES]: string };
        expect(named).toEqual(kept);
        expect(t.inputSchema).toBeUndefined();
        expect((t as ToolSnapshot & { [PARAM_TEXT]: string })[PARAM_TEXT]).toBe(
          paramText({ id: '', server: s.name, tool: full }),
        );
        // The top-level parameter names are kept for the checks that read them (checks/container-input.ts, checks/file-path.ts).
        expect(topParams(t)).toEqual(topParams(full));
        // paramText reads the kept text when there is no schema left to walk.
        expect(paramText({ id: '', server: s.name, tool: t })).toBe(paramText({ id: '', server: s.name, tool: full }));
      }),
    );
    expect(topParams(lean.servers[0]!.tools[0]!)).toEqual(['text', 'tags']);
    expect(lean.servers[0]!.tools[2]!.description).toBe('half \ud800 a pair');
    expect(lean.servers[0]!.tools[0]!.description).toContain('📝');
  });

  it('holds the 111-server fixture-sized catalogue exactly (every description and params text)', () => {
    const doc = JSON.parse(readFileSync(fixture('snapshots', 'many-tools.json'), 'utf8')) as Snapshot;
    const lean = decodeCatalogue(encodeCatalogue(doc.servers, 'x'))!;
    const texts = (list: ServerSnapshot[]): string[] =>
      list.flatMap((s) =>
        s.tools.map((t) => `${t.name}|${t.description}|${paramText({ id: '', server: s.name, tool: t })}`),
      );
    expect(texts(lean.servers)).toEqual(texts(doc.servers));
    expect(texts(lean.servers).length).toBeGreaterThan(10);
  });

  it('refuses bytes that do not hold a payload: truncated, lengths past the end, a head that is not JSON', () => {
    const good = Buffer.from(encodeCatalogue(servers, 'd1'));
    expect(decodeCatalogue(good.subarray(0, good.byteLength - 2))).toBeNull();
    expect(decodeCatalogue(good.subarray(0, 5))).toBeNull();
    const longHead = Buffer.from(good);
    longHead.writeUInt32LE(good.byteLength, 0);
    expect(decodeCatalogue(longHead)).toBeNull();
    const badHead = Buffer.from(good);
    badHead[8] = 0x7b + 1;
    expect(decodeCatalogue(badHead)).toBeNull();
    // One text byte more than the rows account for.
    expect(decodeCatalogue(Buffer.concat([good, Buffer.from([0x41, 0x41])]))).toBeNull();
  });
});

describe('the catalogue-v2 bytes', () => {
  // ASCII, Latin-1 and other texts, a lone surrogate, parameter names with a line feed, an empty one, none at all.
  const long = 'x'.repeat(50) + 'é';
  const lean = (
    [
      {
        name: 'one',
        transport: 'stdio',
        status: 'ok',
        tools: [
          {
            name: 'a',
            description: long,
            inputSchema: { type: 'object', properties: { q: { description: long }, 'two\nlines': {}, '': {}, é: {} } },
          },
          {
            name: 'b',
            description: '天气预报 \u{1F600} and a lone \ud800 surrogate',
            inputSchema: { type: 'object', properties: { 'x\n': {} } },
          },
          { name: 'c', description: 'café ÿ', inputSchema: { type: 'object' } },
          {
            name: 'd',
            description: '',
            title: 'plain ASCII',
            inputSchema: { type: 'object', properties: { a: {}, b: {} } },
          },
        ],
      },
      {
        name: 'two',
        transport: 'http',
        status: 'ok',
        tools: [
          { name: 'e', description: '☃'.repeat(40) },
          { name: 'f', description: 'Ā just above Latin-1' },
        ],
      },
    ] as ServerSnapshot[]
  ).map(leanServer);

  it('are the ones main wrote before the head was built faster (SHA-256 taken from main ca53992)', () => {
    const sum = createHash('sha256').update(encodeCatalogue(lean, 'digest')).digest('hex');
    expect(sum).toBe('b3afb5dc3eb9ec71dcd8ce8756a4a2e28330aa15218a7859c0a771a51f1123e4');
    expect(decodeCatalogue(encodeCatalogue(lean, 'digest'))?.servers.map((s) => s.tools.map(topParams))).toEqual(
      lean.map((s) => s.tools.map(topParams)),
    );
  });

  it('joinedTopParams gives joinedParams(topParams(tool)) for kept names, well formed or not', () => {
    for (const kept of ['', '\n', 'a\n', 'a\nb\n', 'two\nlines\n\n', 'no line feed', 'a\nb', '\n\n', 'é\n☃\n'])
      expect(joinedTopParams({ name: 't', [PARAM_NAMES]: kept }), JSON.stringify(kept)).toBe(
        joinedParams(topParams({ name: 't', [PARAM_NAMES]: kept })),
      );
    const full: ToolSnapshot = { name: 't', inputSchema: { type: 'object', properties: { b: {}, a: {} } } };
    expect(joinedTopParams(full)).toBe('b\na\n');
  });
});

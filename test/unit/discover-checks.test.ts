// The hybrid's checks are declared (src/core/discover/checks/): the README's list of --explain reasons is made
// from the declarations, and the catalogue start cache must keep every catalogue field a check says it reads (the
// cache once dropped parameter names, and the file and container checks silently stopped firing).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCatalogue, encodeCatalogue } from '../../src/app/services/catalogue/payload.js';
import { buildDiscoverIndex, rankTools, toolRefsFromSnapshots } from '../../src/core/discover/index.js';
import { CHECKS } from '../../src/core/discover/checks/index.js';
import { CATALOGUE_FIELDS, fieldsRead } from '../../src/core/discover/checks/fields.js';
import { reasonsMarkdown, SIGNAL_REASONS } from '../../src/core/discover/checks/reasons.js';
import { readIntent } from '../../src/core/discover/intent.js';
import { askedAs } from '../../src/core/discover/mood.js';
import { keptClause, withoutPayload } from '../../src/core/discover/lexicon.js';
import { intentClauses } from '../../src/core/discover/clauses.js';
import { REPO } from '../helpers/paths.js';
import type { ServerSnapshot } from '../../src/core/types.js';

const readmeBlock = (name: string): string | undefined => {
  const readme = readFileSync(join(REPO, 'docs', 'discover.md'), 'utf8');
  return new RegExp(`<!-- sample:${name} -->\\n([\\s\\S]*?)<!-- /sample -->`).exec(readme)?.[1];
};

describe('the declared checks', () => {
  it('each is named by its file under checks/, with a reason, a one-line doc, a stage, a pool and what it reads', () => {
    const names = CHECKS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of CHECKS) {
      expect(existsSync(join(REPO, 'src', 'core', 'discover', 'checks', `${c.name}.ts`)), c.name).toBe(true);
      expect(c.reason).toMatch(/^[a-z]+$/);
      expect(c.doc).not.toMatch(/\n/);
      expect(c.doc.length).toBeGreaterThan(20);
      expect(['fused', 'reranked']).toContain(c.stage);
      expect(['top', 'best', 'near']).toContain(c.pool);
      expect(c.reads.length).toBeGreaterThan(0);
      for (const f of c.reads) expect(Object.keys(CATALOGUE_FIELDS)).toContain(f);
    }
    // No check's reason is a signal's: --explain would add the two up under one name.
    const signals = SIGNAL_REASONS.flatMap((r) => r.keys);
    const reasons = CHECKS.flatMap((c) => (c.parts ? Object.keys(c.parts.docs) : [c.reason]));
    expect(reasons.filter((r) => signals.includes(r))).toEqual([]);
  });

  it("docs/discover.md's list of --explain reasons is the one made from CHECKS", () => {
    const block = readmeBlock('explain-reasons');
    expect(block, 'docs/discover.md has no <!-- sample:explain-reasons --> block').toBeDefined();
    expect(block, 'run: npm run build && node scripts/readme-samples.mjs --only explain-reasons').toBe(
      reasonsMarkdown(),
    );
    // Every check's reasons are in it, each under its file's name.
    for (const c of CHECKS) expect(block).toContain(`\`checks/${c.name}.ts\``);
  });
});

/** One server whose tools fill every catalogue field a check may read. */
const servers: ServerSnapshot[] = [
  {
    name: 'files',
    transport: 'stdio',
    status: 'ok',
    tools: [
      {
        name: 'read_file',
        description: 'Read a file at a path and return its contents',
        inputSchema: {
          type: 'object',
          properties: { path: { type: 'string', description: 'Where the file is' }, encoding: { type: 'string' } },
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: 'delete_file',
        description: 'Delete a file',
        inputSchema: { type: 'object', properties: { filePath: { type: 'string' } } },
        annotations: { destructiveHint: true },
      },
      {
        name: 'get_document',
        description: 'Get the contents of a document by its id',
        inputSchema: { type: 'object', properties: { documentId: { type: 'string' } } },
      },
    ],
  },
  {
    name: 'storage',
    transport: 'stdio',
    status: 'ok',
    tools: [
      {
        name: 'list_objects',
        description: 'List the objects in a bucket',
        inputSchema: { type: 'object', properties: { bucket: { type: 'string' } } },
      },
      { name: 'list_buckets', description: 'List the buckets', inputSchema: { type: 'object', properties: {} } },
    ],
  },
];

describe('the catalogue start cache keeps what the checks read', () => {
  const full = toolRefsFromSnapshots(servers);
  const lean = toolRefsFromSnapshots(decodeCatalogue(encodeCatalogue(servers, 'd'))!.servers);

  it('every field any check reads reads the same from a cached tool as from the tool itself', () => {
    const read = fieldsRead();
    // The parameter names are read (file-path, container-input): the field the cache once dropped.
    expect(read).toContain('parameters');
    expect(lean.map((r) => r.id)).toEqual(full.map((r) => r.id));
    for (const field of read) {
      const of = CATALOGUE_FIELDS[field];
      expect(
        lean.map((r) => of(r)),
        `the cache loses ${field}`,
      ).toEqual(full.map((r) => of(r)));
      // The fixture gives each field a value, so an empty read back cannot pass for a kept one.
      expect(full.every((r) => of(r) !== undefined)).toBe(field === 'annotations' ? false : true);
    }
  });

  it('the checks reading parameters fire on a cached catalogue as on the full one', () => {
    const rank = (refs: typeof full, intent: string) =>
      rankTools(buildDiscoverIndex(refs), intent, { engine: 'hybrid', k: 5 }).results;
    const fired = (intent: string, reason: string) =>
      rank(lean, intent)
        .filter((t) => t.reasons?.[reason] !== undefined)
        .map((t) => t.id);
    const intents = ['show the contents of report.pdf', "what's in the bucket assets?"];
    for (const intent of intents) expect(rank(lean, intent)).toEqual(rank(full, intent));
    // The tool taking a path gains (file-path), the one taking a document id does not.
    expect(fired(intents[0]!, 'file')).toEqual(['files.read_file']);
    // The tool taking the bucket as input gains (container-input), the one listing buckets does not.
    expect(fired(intents[1]!, 'container')).toEqual(['storage.list_objects']);
  });

  it('disabledChecks turns off the named checks for one ranking, and only them', () => {
    const index = buildDiscoverIndex(full);
    const rank = (intent: string, disabledChecks?: ReadonlySet<string>) =>
      rankTools(index, intent, { engine: 'hybrid', k: 5, ...(disabledChecks ? { disabledChecks } : {}) }).results;
    const on = rank('show the contents of report.pdf');
    const off = rank('show the contents of report.pdf', new Set(['file-path']));
    const read = (r: typeof on) => r.find((t) => t.id === 'files.read_file')!;
    const gain = read(on).reasons!.file!;
    expect(gain).toBeGreaterThan(0);
    expect(read(off).reasons?.file).toBeUndefined();
    expect(read(off).score).toBeCloseTo(read(on).score - gain, 3);
    // The other checks still run; an empty set changes nothing; the next ranking runs every check again.
    expect(rank("what's in the bucket assets?", new Set(['file-path']))).toEqual(rank("what's in the bucket assets?"));
    expect(rank('show the contents of report.pdf', new Set())).toEqual(on);
    expect(rank('show the contents of report.pdf')).toEqual(on);
  });
});

describe('the intent read once (intent.ts)', () => {
  it('holds its mood, the text ranked, that text without its payload, its clauses and its kept clause', () => {
    const asked = readIntent('which channels do we have?');
    expect(asked.mood.question).toBe(true);
    expect(asked.text).toBe(askedAs('which channels do we have?').text);
    expect(asked.text).not.toBe(asked.raw);
    const kept = readIntent('remember that alice works at acme');
    expect(kept.kept).toBe(keptClause(kept.text));
    expect(kept.kept).toBeGreaterThan(0);
    const quoted = readIntent('add a note saying "run the SQL query on the orders table", then email it to bob');
    expect(quoted.plain).toBe(withoutPayload(quoted.text));
    expect(quoted.plain).not.toContain('SQL');
    // Clauses are cut from the request without its payload: the quoted text is no step.
    expect(quoted.clauses).toEqual(intentClauses(quoted.plain));
    expect(quoted.clauses.some((c) => c.includes('SQL'))).toBe(false);
    expect(quoted.clauses.length).toBe(2);
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  buildDiscoverIndex,
  loadWordVectors,
  rankTools,
  toolRefsFromSnapshots,
} from '../../src/core/discover/index.js';
import { RERANK_MODEL } from '../../src/core/discover/rerank-model.js';
import {
  RERANK_DEPTH,
  RERANK_FEATURES,
  actionOf,
  rerankScore,
  type RerankModel,
} from '../../src/core/discover/rerank.js';
import { stem } from '../../src/core/discover/tokenize.js';
import type { JsonObject, ToolRef } from '../../src/core/types.js';

const ref = (server: string, name: string, description: string, annotations?: JsonObject): ToolRef => ({
  id: `${server}.${name}`,
  server,
  tool: { name, description, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) },
});

const tools: ToolRef[] = [
  ref('dns', 'delete_records', 'Delete DNS records of a domain', { destructiveHint: true }),
  ref('dns', 'add_record', 'Add a DNS record to a zone'),
  ref('dns', 'list_records', 'List the records of a domain'),
  ref('mail', 'send_mail', 'Send an email message'),
];
const vectors = await loadWordVectors();
const index = buildDiscoverIndex(tools, { vectors });
const at = (name: (typeof RERANK_FEATURES)[number]): number => RERANK_FEATURES.indexOf(name);
/** Each candidate's feature vector for an intent, by tool id (the first stage alone ranks). */
const featuresOf = (intent: string): Map<string, number[]> => {
  const got = new Map<string, number[]>();
  rankTools(index, intent, {
    engine: 'hybrid',
    k: 4,
    rerank: false,
    onCandidates: (ids, feats) => ids.forEach((id, j) => got.set(id, feats[j]!)),
  });
  return got;
};

describe('discover re-ranker (second stage)', () => {
  it('classes everyday verbs by the action they name', () => {
    expect(actionOf(stem('remove'))).toBe('delete');
    expect(actionOf(stem('add'))).toBe('create');
    expect(actionOf(stem('list'))).toBe('read');
    expect(actionOf(stem('rename'))).toBe('update');
    expect(actionOf(stem('domain'))).toBeUndefined();
  });

  it('marks a tool whose verb contradicts the intent, and a destructive one more', () => {
    const got = featuresOf('add an A record for my domain');
    expect(got.get('dns.delete_records')![at('verbConflict')]).toBe(1);
    expect(got.get('dns.delete_records')![at('destructiveConflict')]).toBe(1);
    expect(got.get('dns.list_records')![at('verbConflict')]).toBe(1);
    expect(got.get('dns.list_records')![at('destructiveConflict')]).toBe(0);
    expect(got.get('dns.add_record')![at('verbConflict')]).toBe(0);
    expect(got.get('dns.add_record')![at('nameVerb')]).toBe(1);
  });

  it('reorders the first stage’s candidates only, handing their scores out again in its order', () => {
    const intent = 'delete the records of my domain';
    const first = rankTools(index, intent, { engine: 'hybrid', k: 4, rerank: false }).results;
    // A model that puts contradicted tools first: the reverse of what a trained one learns, so the order changes.
    const model: RerankModel = { features: ['verbConflict'], weights: [5] };
    const second = rankTools(index, intent, { engine: 'hybrid', k: 4, rerank: model }).results;
    expect(first[0]!.id).toBe('dns.delete_records');
    expect(second[0]!.id).not.toBe('dns.delete_records');
    expect(second.map((r) => r.score)).toEqual(first.map((r) => r.score));
    expect(new Set(second.map((r) => r.id))).toEqual(new Set(first.map((r) => r.id)));
    // Each moved tool's `rerank` reason is what its score moved by: the reasons still sum to the score.
    expect(second[0]!.reasons!.rerank).toBeGreaterThan(0);
    for (const r of second) {
      const sum = Object.values(r.reasons!).reduce((a, b) => a + b, 0);
      expect(r.score).toBeCloseTo(sum, 3);
    }
  });

  it('in `first` mode moves only the model’s best tool to the top', () => {
    const intent = 'delete the records of my domain';
    const first = rankTools(index, intent, { engine: 'hybrid', k: 4, rerank: false }).results.map((r) => r.id);
    const model: RerankModel = { features: ['verbConflict'], weights: [5], mode: 'first' };
    const got = rankTools(index, intent, { engine: 'hybrid', k: 4, rerank: model }).results.map((r) => r.id);
    expect(got[0]).not.toBe(first[0]);
    expect(got.slice(1)).toEqual(first.filter((id) => id !== got[0]));
  });

  it('leaves the first stage’s order when usage from the store weighs on a candidate', () => {
    const intent = 'delete the records of my domain';
    const usage = {
      tools: { 'dns.list_records': { success: 3, failure: 0, lastUsed: 1000, categories: {} } },
    };
    const model: RerankModel = { features: ['verbConflict'], weights: [5] };
    const base = rankTools(index, intent, { engine: 'hybrid', k: 4, usage, now: 1000, rerank: false }).results;
    const got = rankTools(index, intent, { engine: 'hybrid', k: 4, usage, now: 1000, rerank: model }).results;
    expect(got.map((r) => r.id)).toEqual(base.map((r) => r.id));
    expect(got.every((r) => r.reasons!.rerank === undefined)).toBe(true);
  });

  it('scores a feature vector by the named features’ weights', () => {
    const x = RERANK_FEATURES.map((_, j) => j + 1);
    expect(rerankScore({ features: ['bm25', 'semantic'], weights: [2, -1] }, x)).toBe(2 * 2 - 3);
    expect(rerankScore({ features: ['unknown'], weights: [9] }, x)).toBe(0);
  });

  it("reads one tool's fields alone exactly as the whole index analyses them (the top 20 only, on a cache hit)", async () => {
    const snap = JSON.parse(
      await readFile(new URL('../../fixtures/snapshots/replay-demo.json', import.meta.url), 'utf8'),
    );
    const refs = toolRefsFromSnapshots(snap.servers);
    expect(refs.length).toBeGreaterThan(30);
    const lazy = buildDiscoverIndex(refs, { vectors });
    const alone = refs.map((_, i) => lazy.fieldsOf(i));
    const whole = buildDiscoverIndex(refs, { vectors }).fields;
    expect(alone).toEqual(whole);
  });

  it('counts a matched term by how few of the other candidates hold it (contrast)', () => {
    // "records" is held by all three dns tools, "zone" only by add_record: of two query terms matched, one
    // tells it apart fully.
    const got = featuresOf('records zone');
    const n = got.size;
    expect(n).toBeGreaterThanOrEqual(3);
    const holdRecords = [...got.keys()].filter((id) => id.startsWith('dns.')).length;
    const share = (held: number): number => 1 - (held - 1) / (n - 1);
    expect(got.get('dns.add_record')![at('contrast')]).toBeCloseTo((share(holdRecords) + share(1)) / 2, 6);
    expect(got.get('dns.list_records')![at('contrast')]).toBeCloseTo(share(holdRecords) / 2, 6);
    expect(got.get('mail.send_mail')![at('contrast')]).toBe(0);
  });

  it('matches intent words to name and lead words by their vectors (soft features)', () => {
    const got = featuresOf('send mail as an email message');
    const mail = got.get('mail.send_mail')!;
    // Every intent word is a word of send_mail's name or lead and every name word one of the intent's, each
    // matched with itself (cosine 1).
    expect(mail[at('querySoft')]).toBeCloseTo(1, 5);
    expect(mail[at('nameSoft')]).toBeCloseTo(1, 5);
    for (const [id, x] of got) {
      if (id === 'mail.send_mail') continue;
      expect(x[at('querySoft')]).toBeLessThan(mail[at('querySoft')]!);
      expect(x[at('nameSoft')]).toBeLessThan(mail[at('nameSoft')]!);
      expect(x[at('leadSemantic')]).toBeLessThan(mail[at('leadSemantic')]!);
      expect(x[at('nameSemantic')]).toBeLessThan(mail[at('nameSemantic')]!);
    }
  });

  it('gives a candidate the same features whatever intents were ranked before (per-query word cosines)', () => {
    const a = featuresOf('remove the dns records of a domain');
    featuresOf('email a message to the zone owner');
    featuresOf('list every record');
    expect(featuresOf('remove the dns records of a domain')).toEqual(a);
  });

  it('ships a model whose every feature this version computes, over the depth it was trained at', () => {
    expect(RERANK_MODEL).not.toBe(false);
    const model = RERANK_MODEL as RerankModel;
    expect(model.features.length).toBe(model.weights.length);
    for (const f of model.features) expect(RERANK_FEATURES).toContain(f);
    expect(model.depth).toBe(RERANK_DEPTH);
    expect(['first', 'order', undefined]).toContain(model.mode);
  });

  it('reads at most the first 128 distinct known words of an intent for soft coverage', () => {
    // 200 distinct known words (a pasted page), then words that match send_mail exactly.
    const filler = [...vectors.index.keys()].filter((w) => /^[a-z]{5,}$/.test(w)).slice(2000, 2200);
    const page = featuresOf(filler.join(' '));
    const tail = featuresOf(`${filler.join(' ')} send mail email message`);
    expect(page.has('mail.send_mail') && tail.has('mail.send_mail')).toBe(true);
    for (const f of ['nameSoft', 'querySoft'] as const)
      expect(tail.get('mail.send_mail')![at(f)]).toBe(page.get('mail.send_mail')![at(f)]);
    // With the page shorter than the cap, the same tail is read and raises send_mail's soft coverage.
    const short = featuresOf(`${filler.slice(0, 20).join(' ')} send mail email message`);
    expect(short.get('mail.send_mail')![at('nameSoft')]).toBeGreaterThan(page.get('mail.send_mail')![at('nameSoft')]!);
  });
});

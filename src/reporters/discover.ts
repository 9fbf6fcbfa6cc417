/** Discover reporter: ranked tools (table, markdown, JSON) or the metrics of a --queries evaluation. */
import type { ChalkInstance } from 'chalk';
import type { DiscoverEvaluation, DiscoverRanking, DiscoverResult } from '../core/discover/result.js';
import type { OutputFormat } from '../types.js';
import { renderByFormat } from './index.js';
import { discoverDocument, renderJson } from './json.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

export interface DiscoverRenderOptions {
  format: OutputFormat;
  chalk: ChalkInstance;
  explain: boolean;
}

const score = (v: number): string => v.toFixed(3);

/** "bm25 0.612 + semantic 0.301" under --explain, else the intent words the tool matched. */
function why(r: DiscoverRanking['results'][number], explain: boolean): string {
  const parts: string[] = [];
  if (r.pinned) parts.push('pinned');
  if (explain && r.reasons)
    parts.push(
      Object.entries(r.reasons)
        .map(([k, v]) => `${k} ${score(v)}`)
        .join(' + '),
    );
  else if (r.matched && r.matched.length > 0) parts.push(`matched: ${r.matched.join(', ')}`);
  return parts.join('; ');
}

function rankingTable(r: DiscoverRanking, explain: boolean): TableSpec {
  return {
    head: ['rank', 'id', 'score', explain ? 'signals' : 'why'],
    rows: r.results.map((t) => [t.rank, t.id, score(t.score), why(t, explain)]),
    right: [0, 2],
  };
}

function headline(r: DiscoverRanking): string {
  const head = `${r.engine} ranking for "${r.intent}"`;
  if (!r.fallback) return head;
  return `${head}: nothing matched, so every tool is listed (fallback).`;
}

function evaluationTable(r: DiscoverEvaluation): TableSpec {
  return {
    head: ['metric', 'value'],
    rows: [
      ...Object.entries(r.recallAt).map(([k, v]) => [`Recall@${k}`, score(v)]),
      ['MRR', score(r.mrr)],
      ['nDCG@10', score(r.ndcg10)],
    ],
    right: [1],
  };
}

export function renderDiscover(r: DiscoverResult, opts: DiscoverRenderOptions): string {
  return renderByFormat(opts.format, {
    json: () => renderJson('discover', discoverDocument(r, opts.explain)),
    markdown: () => discoverText(r, opts.explain, (spec) => `\n${renderMarkdownTable(spec)}`),
    table: () => discoverText(r, opts.explain, (spec) => renderTable(spec, opts.chalk)),
  });
}

/** The heading line, then the table (markdown leaves a blank line between them). */
function discoverText(r: DiscoverResult, explain: boolean, table: (spec: TableSpec) => string): string {
  if (r.kind === 'evaluation')
    return `${r.engine} on ${r.cases} labelled intents from ${r.queries}\n${table(evaluationTable(r))}\n`;
  if (r.results.length === 0) return `${headline(r)}\nNo tools to rank.\n`;
  return `${headline(r)}\n${table(rankingTable(r, explain))}\n`;
}

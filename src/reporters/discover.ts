/** Discover reporter: ranked tools (table, markdown, JSON) or the metrics of a --queries evaluation. */
import type { ChalkInstance } from 'chalk';
import type { DiscoverEvaluation, DiscoverRanking, DiscoverResult } from '../core/discover/result.js';
import { analyze, intentText } from '../core/discover/tokenize.js';
import type { OutputFormat } from '../core/types.js';
import { missLines } from './format.js';
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

/**
 * The intent's words as typed, by the index terms they give: "Messages," → messag → "Messages". The ranking
 * reports the stemmed terms it matched; the "why" column shows the words the user wrote.
 */
export function typedWordsOf(intent: string): (term: string) => string {
  const byTerm = new Map<string, string>();
  for (const raw of intentText(intent).split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (word === '') continue;
    const lower = word.toLowerCase();
    if (!byTerm.has(lower)) byTerm.set(lower, word);
    for (const term of analyze(word)) if (!byTerm.has(term)) byTerm.set(term, word);
  }
  return (term) => byTerm.get(term) ?? term;
}

/** "bm25 0.612 + semantic 0.301" under --explain, else the intent words the tool matched. */
function why(r: DiscoverRanking['results'][number], explain: boolean, typed: (term: string) => string): string {
  const parts: string[] = [];
  if (r.pinned) parts.push('pinned');
  if (explain && r.reasons)
    parts.push(
      Object.entries(r.reasons)
        .map(([k, v]) => `${k} ${score(v)}`)
        .join(' + '),
    );
  else if (r.matched && r.matched.length > 0) parts.push(`matched: ${[...new Set(r.matched.map(typed))].join(', ')}`);
  if (explain && r.remembered !== undefined) parts.push(`remembered: "${r.remembered}"`);
  return parts.join('; ');
}

function rankingTable(r: DiscoverRanking, explain: boolean): TableSpec {
  const typed = typedWordsOf(r.intent);
  return {
    head: ['rank', 'id', 'score', explain ? 'signals' : 'why'],
    rows: r.results.map((t) => [t.rank, t.id, score(t.score), why(t, explain, typed)]),
    right: [0, 2],
    clip: [1],
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

/** missLines as text, each line ended. */
function missesText(r: DiscoverEvaluation): string {
  return missLines(r)
    .map((line) => `${line}\n`)
    .join('');
}

export function renderDiscover(r: DiscoverResult, opts: DiscoverRenderOptions): string {
  return renderByFormat(opts.format, {
    json: () => renderJson('discover', discoverDocument(r, opts.explain)),
    markdown: () => discoverText(r, opts.explain, (spec) => `\n${renderMarkdownTable(spec)}`),
    table: () => discoverText(r, opts.explain, (spec) => renderTable(spec, opts.chalk)),
  });
}

/** The heading line, then the table (markdown leaves a blank line between them); an evaluation lists its misses. */
function discoverText(r: DiscoverResult, explain: boolean, table: (spec: TableSpec) => string): string {
  if (r.kind === 'evaluation')
    return (
      `${r.engine} on ${r.cases} labelled intents from ${r.queries}\n${table(evaluationTable(r))}\n` + missesText(r)
    );
  if (r.results.length === 0) return `${headline(r)}\nNo tools to rank.\n`;
  // --explain says how the intent was read before the table of what each signal gave.
  if (explain && r.reading)
    return `${headline(r)}\n${r.reading.map((n) => `  read: ${n}\n`).join('')}${table(rankingTable(r, explain))}\n`;
  return `${headline(r)}\n${table(rankingTable(r, explain))}\n`;
}

/** Replay reporter: ranking quality per engine and server, token comparison, tuning and learning summaries. */
import { scopeLines } from './scope.js';
import type { ChalkInstance } from 'chalk';
import type { ReplayResult } from '../core/session/result.js';
import type { OutputFormat } from '../core/types.js';
import { countOf, formatTokens } from './format.js';
import { renderByFormat } from './index.js';
import { renderJson, replayDocument } from './json.js';
import { renderMarkdownTable } from './markdown.js';
import { renderTable, type TableSpec } from './table.js';

export interface ReplayRenderOptions {
  format: OutputFormat;
  chalk: ChalkInstance;
}

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`;
const num = (v: number): string => v.toFixed(3);
const signed = (v: number): string => `${v >= 0 ? '+' : '-'}${Math.abs(v).toFixed(3)}`;

function enginesTable(r: ReplayResult): TableSpec {
  return {
    head: ['engine', 'Recall@1', 'Recall@3', 'Recall@5', 'MRR'],
    rows: r.engines.map((e) => [
      e.engine,
      pct(e.recallAt['1'] ?? 0),
      pct(e.recallAt['3'] ?? 0),
      pct(e.recallAt['5'] ?? 0),
      num(e.mrr),
    ]),
    right: [1, 2, 3, 4],
  };
}

function serversTable(r: ReplayResult): TableSpec | undefined {
  const hybrid = r.engines.find((e) => e.engine === 'hybrid');
  if (!hybrid || hybrid.perServer.length === 0) return undefined;
  return {
    head: ['server (hybrid)', 'expected', 'Recall@1', 'Recall@5', 'MRR'],
    rows: hybrid.perServer.map((s) => [
      s.server,
      s.expected,
      pct(s.recallAt['1'] ?? 0),
      pct(s.recallAt['5'] ?? 0),
      num(s.mrr),
    ]),
    right: [1, 2, 3, 4],
  };
}

/** Plain text for markdown: it goes to files and PR comments, never a terminal, so it carries no colour codes. */
const plain = (text: string): string => text;

/** The lines around the tables; `chalk` colours them for the terminal table, none for markdown. */
function lines(r: ReplayResult, chalk: ChalkInstance | undefined): { intro: string[]; outro: string[] } {
  const yellow = chalk?.yellow ?? plain;
  const green = chalk?.green ?? plain;
  const red = chalk?.red ?? plain;
  const intro = [
    `Replayed ${countOf(r.cases, 'case')} from ${countOf(r.sessions, 'session')} in ${countOf(r.files.length, 'file')} against ${countOf(r.tools, 'tool')}.` +
      (r.problems.length > 0
        ? ` ${countOf(r.problems.length, 'malformed line or block', 'malformed lines or blocks')} skipped.`
        : '') +
      (r.unreadable
        ? ` ${countOf(r.unreadable.length, 'unreadable file or folder', 'unreadable files or folders')} skipped.`
        : '') +
      (r.callsWithoutTurn
        ? ` ${countOf(r.callsWithoutTurn, 'tool call')} before any user turn (no intent to score) skipped.`
        : ''),
  ];
  if (r.cases === 0)
    intro.push(
      'No case to score: no request in these recordings is followed by a tool call or labelled with the tools it expects.',
    );
  if (r.unknownTools.length > 0)
    intro.push(
      `${countOf(r.unknownCalls, 'call')} to ${countOf(r.unknownTools.length, 'tool')} not loaded (scored as misses): ${r.unknownTools.join(', ')}`,
    );
  if (r.hiddenTools.length > 0)
    intro.push(
      `${countOf(r.hiddenCalls, 'call')} to ${countOf(r.hiddenTools.length, 'tool')} hidden from the model (scored as misses): ${r.hiddenTools.join(', ')}`,
    );
  const outro: string[] = [];
  const t = r.tokens;
  outro.push(
    r.cases === 0
      ? `Tokens: no case was replayed, so no saving is claimed (all tools ${formatTokens(t.all)}).`
      : `Tokens: top ${countOf(t.k, 'tool')} ${formatTokens(t.topK)} on average vs all tools ${formatTokens(t.all)} (${pct(t.saved)} saved).`,
  );
  if (r.tuned) {
    const u = r.tuned;
    const g = u.heldOutGain;
    const gain = g ? `; gain ${signed(g.mean)}, 95 % interval ${signed(g.low)} to ${signed(g.high)}` : '';
    const cv =
      u.folds.length > 0
        ? `held-out MRR ${num(u.heldOutMrr)} vs ${num(u.baselineHeldOutMrr)} before (${u.folds.length}-fold by session${gain}), train MRR ${num(u.trainMrr)}`
        : `train MRR ${num(u.trainMrr)} (too few sessions to cross-validate)`;
    outro.push(
      `Tuned: ${cv}; hybrid Recall@5 ${pct(u.hybrid.recallAt['5'] ?? 0)}, MRR ${num(u.hybrid.mrr)} with the tuned weights.`,
    );
    if (g && g.low <= 0)
      outro.push(
        yellow(
          'The interval reaches 0: on these sessions the tuned weights are not clearly better than the current ones.',
        ),
      );
    outro.push(
      u.written
        ? `Weights written to ${u.written}.`
        : r.cases === 0
          ? 'Nothing was tuned, so no weights were written.'
          : 'Pass --write to store the weights in mcp-smart.config.json.',
    );
  }
  if (r.startedFrom) {
    const s = r.startedFrom;
    outro.push(
      `Started from the usage store ${s.store} (${countOf(s.tools, 'tool')}, ${countOf(s.intents, 'remembered intent')}); --no-store replays from nothing.`,
    );
  }
  if (r.scope) {
    outro.push(
      `Scope derived from use (per project: the directory the recordings name, hashed; store scope shows a store's):\n${scopeLines(r.scope).join('\n')}`,
    );
  }
  if (r.learned) {
    const l = r.learned;
    outro.push(
      `Learned ${countOf(l.cases, 'case')} into ${l.store} (${formatTokens(l.alreadyLearned)} already learned` +
        (l.notLearned
          ? `; ${countOf(l.notLearned, 'case')} left for a later --learn that loads the tools ${l.notLearned === 1 ? 'it calls' : 'they call'}`
          : '') +
        `); it now holds ${countOf(l.tools, 'tool')}.`,
    );
  }
  if (r.minRecall) {
    const m = r.minRecall;
    const word = m.passed ? green('PASS') : red('FAIL');
    outro.push(`${word} hybrid Recall@5 ${pct(m.actual)} ${m.passed ? '>=' : '<'} required ${pct(m.required)}.`);
  }
  return { intro, outro };
}

export function renderReplay(r: ReplayResult, opts: ReplayRenderOptions): string {
  return renderByFormat(opts.format, {
    json: () => renderJson('replay', replayDocument(r)),
    markdown: () => replayMarkdown(r),
    table: () => replayTable(r, opts.chalk),
  });
}

function replayMarkdown(r: ReplayResult): string {
  const { intro, outro } = lines(r, undefined);
  const servers = serversTable(r);
  const tables = [renderMarkdownTable(enginesTable(r)), ...(servers ? ['', renderMarkdownTable(servers)] : [])];
  // No case: a table of 0.0 % recalls would read as a ranking that found nothing.
  return [...intro, ...(r.cases === 0 ? [] : ['', ...tables]), '', ...outro].join('\n') + '\n';
}

function replayTable(r: ReplayResult, chalk: ChalkInstance): string {
  const { intro, outro } = lines(r, chalk);
  const servers = serversTable(r);
  const tables = [renderTable(enginesTable(r), chalk), ...(servers ? [renderTable(servers, chalk)] : [])];
  return [...intro, ...(r.cases === 0 ? [] : tables), ...outro].join('\n') + '\n';
}

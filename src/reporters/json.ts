/**
 * The JSON reporter: one document per command on stdout, `schemaVersion` and `command` first, keys in a stable
 * order (CONTRACT "JSON documents", pinned by test/cli/json-documents.test.ts). Most documents are the command's
 * result as core returns it; the ones below choose and order their keys.
 */
import type { DiscoverResult } from '../core/discover/result.js';
import type { ServersResult } from '../core/servers-list.js';
import type { ReplayResult } from '../core/session/result.js';
import { redactFreeText } from '../process/redact.js';
import type { OwnedKind } from '../process/safe-write.js';

/** `{schemaVersion: 1, command, ...body}`, pretty-printed, with a final newline. */
export function renderJson(command: string, body: object): string {
  return JSON.stringify({ schemaVersion: 1, command, ...body }, null, 2) + '\n';
}

/** A file holding `command`'s document (`-o`): the one an existing file must be, to be replaced (safe-write.ts). */
export function documentKind(command: string): OwnedKind {
  return { mark: new RegExp(`"command"\\s*:\\s*"${command}"`), what: `an mcp-smart ${command} document` };
}

/** Missed intents as printed: a key typed into one is hidden as the learned store hides it. */
const shownMisses = <T extends { intent: string }>(misses: readonly T[]): T[] =>
  misses.map((m) => ({ ...m, intent: redactFreeText(m.intent) }));

/** replay: the contract's `{cases, engines, tuned?}` first, then everything else. */
export function replayDocument(r: ReplayResult): object {
  return {
    cases: r.cases,
    engines: r.engines,
    ...(r.tuned ? { tuned: r.tuned } : {}),
    sessions: r.sessions,
    tools: r.tools,
    tokens: r.tokens,
    unknownTools: r.unknownTools,
    unknownCalls: r.unknownCalls,
    hiddenTools: r.hiddenTools,
    hiddenCalls: r.hiddenCalls,
    turnsWithoutCalls: r.turnsWithoutCalls,
    files: r.files,
    problems: r.problems,
    ...(r.unreadable ? { unreadable: r.unreadable } : {}),
    ...(r.callsWithoutTurn ? { callsWithoutTurn: r.callsWithoutTurn } : {}),
    misses: shownMisses(r.misses),
    ...(r.learned ? { learned: r.learned } : {}),
    ...(r.startedFrom ? { startedFrom: r.startedFrom } : {}),
    ...(r.minRecall ? { minRecall: r.minRecall } : {}),
    ...(r.scope ? { scope: r.scope } : {}),
  };
}

/** discover: the ranking (`reasons` only under --explain), or the metrics of a --queries evaluation. */
export function discoverDocument(r: DiscoverResult, explain: boolean): object {
  if (r.kind === 'evaluation')
    return {
      queries: r.queries,
      engine: r.engine,
      k: r.k,
      cases: r.cases,
      recallAt: r.recallAt,
      mrr: r.mrr,
      ndcg10: r.ndcg10,
      ...(r.missCount !== undefined ? { missCount: r.missCount, misses: shownMisses(r.misses ?? []) } : {}),
      ...(r.unknownExpected ? { unknownExpected: r.unknownExpected } : {}),
    };
  return {
    intent: r.intent,
    engine: r.engine,
    k: r.k,
    fallback: r.fallback,
    ...(explain && r.reading ? { reading: r.reading } : {}),
    results: r.results.map((t) => ({
      rank: t.rank,
      id: t.id,
      server: t.server,
      tool: t.tool,
      score: t.score,
      ...(explain && t.reasons ? { reasons: t.reasons } : {}),
      ...(explain && t.remembered !== undefined ? { remembered: t.remembered } : {}),
    })),
  };
}

/** servers: the list, the shadowings and every location searched (warnings go to stderr, not here). */
export function serversDocument(r: ServersResult): object {
  return {
    servers: r.servers,
    shadowings: r.shadowings,
    searched: r.searched,
    ...(r.configFile ? { configFile: r.configFile } : {}),
  };
}

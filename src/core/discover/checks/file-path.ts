/**
 * A file the intent names by its file name ("how big is report.pdf", "read Sheet1 of budget.xlsx", "what does the
 * config.yaml file say?"): the object is a file at a path, so the tool to call takes a path. Tools that do (a
 * top-level parameter named `path`, `filePath`, `fileAbsolutePath`, `file`, `filename`…) gain a share of the best
 * score among the best candidates, over tools of the same topic that take a cloud document's id or no file at all.
 * The tool's own schema, not a list of tools; host names ("mysite.com") are no files.
 */
import type { Check } from './check.js';
import type { DiscoverIndex } from '../build.js';
import { ACTION_PENALTY } from '../actions.js';
import { bestScore, kept, shiftScores, type ViewStore } from '../per-tool.js';
import { topParams } from '../param-names.js';

/** Share of the best candidate's score a tool taking a file path gains when the intent names a file. */
export const FILENAME_SHARE = ACTION_PENALTY;

// A name with a short lower-case extension, standing alone (not inside a URL, an address or a path, which are
// payload or hosts), whose extension is not a top-level domain's.
const FILE = /(?<![\w@/.:-])[\w-]+\.([a-z][a-z0-9]{1,4})(?![\w@/-]|\.[a-z])/g;
const HOSTS = new Set(['com', 'org', 'net', 'io', 'dev', 'app', 'ai', 'co', 'me', 'edu', 'gov', 'info', 'biz']);

/** Whether the intent names a file by its file name (a name with an extension, not a host name). */
export function namesFile(intent: string): boolean {
  for (const m of intent.matchAll(FILE)) if (!HOSTS.has(m[1]!)) return true;
  return false;
}

const takes: ViewStore<boolean> = new WeakMap();

/** Whether a tool takes a file path: a top-level parameter whose name ends in "path", "file" or "filename". */
export function takesPath(index: DiscoverIndex, doc: number): boolean {
  return kept(takes, index, doc, () => {
    return topParams(index.tools[doc]!.tool).some((p) =>
      /(?:path|file|filename)$/.test(p.toLowerCase().replace(/[_-]/g, '')),
    );
  });
}

/** Raises `scores` of the candidates taking a file path when the intent names a file; returns each gain, or null. */
export function fileInputs(
  index: DiscoverIndex,
  intent: string,
  scores: Float32Array,
  cands: readonly number[],
): Map<number, number> | null {
  if (cands.length < 2 || !namesFile(intent)) return null;
  const top = bestScore(scores, cands);
  if (!(top > 0)) return null;
  return shiftScores(scores, cands, FILENAME_SHARE * top, (i) => (takesPath(index, i) ? 1 : 0));
}

export const filePathCheck: Check = {
  name: 'file-path',
  reason: 'file',
  doc: 'when a one-step intent names a file by its file name ("how big is report.pdf"), a tool taking a path gains 5 % of the best score',
  stage: 'reranked',
  pool: 'near',
  reads: ['parameters'],
  applies: (c) => c.steps < 2,
  shift: (c, pool) => fileInputs(c.index, c.intent.rawPlain, c.scores, pool()),
};

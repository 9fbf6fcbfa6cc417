/**
 * Load hints for clients with their own tool search, from what the team's usage store learned. Claude Code
 * (2.1.332, read from its bundled code) reads two keys of a tool's `_meta`:
 * - `anthropic/alwaysLoad`: only `=== true` counts; such a tool is never deferred behind its ToolSearch (a
 *   server-level `alwaysLoad: false` in the client's config deletes the key again).
 * - `anthropic/searchHint`: only a string counts; whitespace is collapsed, and its keyword search matches each
 *   query word as a whole word (`\b…\b`) in the hint's first 80 characters, lowercased (+4 to the tool's score;
 *   an exact name part gives +12, a description word +2). It is also sent to the API as `search_hint`.
 * So: alwaysLoad on the few most used tools, within a token budget; a hint of at most 80 characters of
 * distinct words the team used for the tool that its name does not already carry. Deterministic, so the served
 * list (and the client's prompt cache) stays the same until the usage changes.
 */
import { STOP_WORDS } from '../discover/tokenize.js';
import { redactText } from '../../process/redact.js';
import type { UsageStats } from '../types.js';

/** Claude Code's keyword tool search reads this many characters of a hint. */
export const SEARCH_HINT_CHARS = 80;

export interface LoadHintRules {
  /** At most this many tools always loaded (pinned tools come on top). */
  maxTools: number;
  /** At most this many tokens of always-loaded tool definitions (pinned tools come on top). */
  maxTokens: number;
  /** Stop once the always-loaded tools cover this share of the recorded calls. */
  coverage: number;
  /** Write searchHint. */
  searchHint: boolean;
}

export const DEFAULT_LOAD_HINTS: LoadHintRules = { maxTools: 5, maxTokens: 3000, coverage: 0.8, searchHint: true };

export interface HintCandidate {
  id: string;
  /** The tool's name as the server sends it (its words are not repeated in the hint). */
  tool: string;
  server: string;
  /** Tokens of the definition as served. */
  tokens: number;
  pinned: boolean;
  /** No hints for this tool (config). */
  off: boolean;
}

export interface LoadHints {
  /** Always-loaded tool ids, most used first (pinned ones first of all). */
  alwaysLoad: string[];
  /** Their definitions' tokens: what always loading them costs in every request. */
  alwaysLoadTokens: number;
  /** Share of the recorded calls that went to the always-loaded tools. */
  coverage: number;
  /** Tool id → search hint. */
  searchHints: Map<string, string>;
}

const calls = (usage: UsageStats, id: string): number => usage.tools[id]?.success ?? 0;

/** Chooses the always-loaded tools and writes the search hints. */
export function planLoadHints(
  candidates: readonly HintCandidate[],
  usage: UsageStats,
  rules: LoadHintRules,
): LoadHints {
  const live = candidates.filter((c) => !c.off);
  const total = Object.values(usage.tools).reduce((n, u) => n + u.success, 0);
  const chosen: HintCandidate[] = live.filter((c) => c.pinned).sort((a, b) => (a.id < b.id ? -1 : 1));
  let tokens = 0;
  let covered = chosen.reduce((n, c) => n + calls(usage, c.id), 0);
  const ranked = live
    .filter((c) => !c.pinned && calls(usage, c.id) > 0)
    .sort((a, b) => calls(usage, b.id) - calls(usage, a.id) || (a.id < b.id ? -1 : 1));
  let picked = 0;
  for (const c of ranked) {
    if (picked >= rules.maxTools || (total > 0 && covered / total >= rules.coverage)) break;
    if (tokens + c.tokens > rules.maxTokens) continue;
    chosen.push(c);
    picked++;
    tokens += c.tokens;
    covered += calls(usage, c.id);
  }
  const searchHints = new Map<string, string>();
  if (rules.searchHint)
    for (const c of live) {
      const hint = searchHintOf(c, usage);
      if (hint) searchHints.set(c.id, hint);
    }
  return {
    alwaysLoad: chosen.map((c) => c.id),
    alwaysLoadTokens: chosen.reduce((n, c) => n + c.tokens, 0),
    coverage: total > 0 ? chosen.reduce((n, c) => n + calls(usage, c.id), 0) / total : 0,
    searchHints,
  };
}

/**
 * Distinct words of the tool's remembered intents (most used first), then of its task categories, that its
 * name does not already hold; secrets redacted; cut at a word boundary within SEARCH_HINT_CHARS.
 */
export function searchHintOf(c: Pick<HintCandidate, 'id' | 'tool' | 'server'>, usage: UsageStats): string | undefined {
  const own = new Set(`${c.server} ${c.tool}`.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const intents = [...(usage.intents?.[c.id] ?? [])].sort(
    (a, b) => b.count - a.count || b.last - a.last || (a.text < b.text ? -1 : 1),
  );
  const categories = Object.entries(usage.tools[c.id]?.categories ?? {})
    .filter(([name, n]) => n > 0 && name !== 'other')
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([name]) => name.replace(/_/g, ' '));
  const words: string[] = [];
  const seen = new Set<string>();
  let length = 0;
  for (const text of [...intents.map((r) => r.text), ...categories])
    for (const word of hintWords(text)) {
      if (word.length < 3 || /^\d+$/.test(word) || STOP_WORDS.has(word) || own.has(word) || seen.has(word)) continue;
      const next = length + (words.length > 0 ? 1 : 0) + word.length;
      if (next > SEARCH_HINT_CHARS) continue;
      seen.add(word);
      words.push(word);
      length = next;
    }
  return words.length > 0 ? words.join(' ') : undefined;
}

/** Provider key prefixes and long letter-and-digit runs: token-like pieces, never a hint word. */
const TOKEN_LIKE = /^(sk|pk|rk|ghp|gho|ghu|ghs|github_pat|xox[abpr]|glpat)[-_]|^(?=.*[a-z])(?=.*\d)\S{16,}$/i;

/** The words of a remembered intent, with secrets and whole token-like pieces dropped (not split into words). */
function hintWords(text: string): string[] {
  return redactText(text)
    .split(/\s+/)
    .filter((piece) => !TOKEN_LIKE.test(piece))
    .flatMap((piece) => piece.toLowerCase().split(/[^\p{L}\p{N}]+/u));
}

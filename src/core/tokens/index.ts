/** Token counting behind one module: gpt-tokenizer's encodings for counts, loaded lazily per encoding. */
import type { Encoding, ServerSnapshot, ToolSnapshot } from '../types.js';
import { hashText, openCountCache, type CountCache } from './count-cache.js';
import { loadEncodingCore } from './encoding-core.js';
import { renderServerOverhead, renderTool, type RenderStyle } from './render.js';

export type { RenderStyle } from './render.js';
export { renderTool, renderToolCline, renderToolJson, renderTools } from './render.js';
export { countCacheFile } from './count-cache.js';

export interface TokenCounter {
  encoding: Encoding;
  /**
   * Exact token count of `text` with this encoding. Never throws on special-token strings. Synchronous: it
   * holds the event loop for the whole text, which is time O(n log n) in its longest piece (1.2–1.5 s of CPU for
   * a 1 MB run of letters, 0.1–0.3 s for 64k CJK characters, measured in bench:tokens), not O(n²) (minutes). A
   * signal or timer is therefore handled at most that long after it arrives, as soon as the count returns;
   * callers that count many texts should yield between them if they must react sooner.
   */
  count(text: string): number;
  /** Persists new counts to the on-disk cache (no-op without one). */
  flush?(): Promise<void>;
  /** Texts answered from the cache vs. tokenized, since creation. */
  stats?(): { hits: number; misses: number };
}

/** A raw tokenizer: text → token count. */
export type Tokenize = (text: string) => number;

/**
 * gpt-tokenizer's rank data and pre-tokenization for one encoding, loaded lazily (nothing is downloaded). Long
 * pieces (a run of letters, CJK text, a long identifier or punctuation run in a blob) are merged in O(n log n)
 * (heap-merge.ts) with the same result, so no single piece blocks for long and the SIGINT/SIGTERM handlers and
 * timers run soon after (see `TokenCounter.count`). Special-token strings count as plain text.
 */
export async function loadTokenizer(encoding: Encoding): Promise<Tokenize> {
  return (await loadEncodingCore(encoding)).count;
}

export interface CounterOptions {
  /** Enables the on-disk count cache in `<cacheDir>/token-counts/<encoding>.json`. */
  cacheDir?: string;
  /** Replaces the tokenizer (tests, the reference tokenizer in benchmarks). */
  tokenize?: Tokenize;
  /**
   * With a cache: load the tokenizer only when `prepareCounter` finds an uncached text, so a warm
   * re-audit skips loading it. The caller must then call `prepareCounter` before counting.
   */
  deferLoad?: boolean;
  /**
   * With deferLoad: the loaded tokenizer (for o200k 6 MB live from the built table, 15 MB from gpt-tokenizer's
   * module) is let go after this long without a miss, and loaded again by `prepareCounter` when a text is missing.
   * For long-lived counters (serve).
   */
  releaseAfterMs?: number;
  /** The clock releaseAfterMs is read on. */
  now?: () => number;
}

/** Texts up to this many UTF-16 units are remembered by themselves; longer ones by their hash (a `#` before it). */
const MEMO_TEXT_MAX = 256;

/** A counter for the encoding; loads the encoding lazily. `cacheDir` enables the on-disk count cache. */
export async function createTokenCounter(encoding: Encoding, opts: CounterOptions = {}): Promise<TokenCounter> {
  const cache: CountCache | undefined = opts.cacheDir ? await openCountCache(opts.cacheDir, encoding) : undefined;
  let tokenize = opts.tokenize;
  if (!tokenize && !(cache && opts.deferLoad)) tokenize = await loadTokenizer(encoding);
  // With a cache, the tokenizer (≈0.1 s to load for o200k from the built table, bench:tokload) is only loaded on the first miss.
  let pending: Promise<Tokenize> | undefined;
  // Counts already given, by the text itself when short, else by its hash: a long text (a whole tool's rendering,
  // 2,781 of them on a large catalogue) is not kept alive as a key (13 MB there).
  const memo = new Map<string, number>();
  const memoKey = (text: string): string => (text.length <= MEMO_TEXT_MAX ? text : `#${hashText(text)}`);
  let hits = 0;
  let misses = 0;
  const now = opts.now;
  const release = opts.releaseAfterMs !== undefined && now && cache && opts.deferLoad ? opts.releaseAfterMs : undefined;
  let lastUse = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const releaseWhenIdle = (): void => {
    const idle = now!() - lastUse;
    if (idle < release!) timer = setTimeout(releaseWhenIdle, release! - idle).unref();
    else {
      timer = undefined;
      tokenize = undefined;
      pending = undefined;
    }
  };
  const used = (): void => {
    if (release === undefined) return;
    lastUse = now!();
    timer ??= setTimeout(releaseWhenIdle, release).unref();
  };
  const tokenizeNow = (text: string): number => {
    if (!tokenize) throw new Error('tokenizer not loaded: call prepareCounter() first (deferLoad)');
    misses++;
    used();
    return tokenize(text);
  };
  const counter: TokenCounter & { prepare(texts: Iterable<string>): Promise<void> } = {
    encoding,
    count(text: string): number {
      if (text === '') return 0;
      const short = text.length <= MEMO_TEXT_MAX;
      const hash = short ? undefined : hashText(text);
      const seen = memo.get(short ? text : `#${hash}`);
      if (seen !== undefined) return seen;
      let n: number | undefined;
      if (cache) {
        const key = hash ?? hashText(text);
        n = cache.get(key);
        if (n === undefined) {
          n = tokenizeNow(text);
          cache.set(key, n);
        } else hits++;
      } else n = tokenizeNow(text);
      memo.set(short ? text : `#${hash}`, n);
      return n;
    },
    async prepare(texts: Iterable<string>): Promise<void> {
      if (tokenize || !cache) return;
      for (const t of texts) {
        if (t !== '' && !memo.has(memoKey(t)) && cache.get(hashText(t)) === undefined) {
          pending ??= loadTokenizer(encoding);
          tokenize = await pending;
          used();
          return;
        }
      }
    },
    flush: async () => {
      await cache?.flush();
    },
    stats: () => ({ hits, misses }),
  };
  return counter;
}

/**
 * Loads the tokenizer if any of `texts` is not cached. Counting is synchronous, so a cache-backed counter
 * must be prepared with the texts it will count before `count` is called on a miss.
 */
export async function prepareCounter(counter: TokenCounter, texts: Iterable<string>): Promise<void> {
  const prep = (counter as { prepare?: (t: Iterable<string>) => Promise<void> }).prepare;
  if (prep) await prep.call(counter, texts);
}

/** Tokens of one tool as a client would send it in the given rendering. */
export function countToolTokens(
  tool: ToolSnapshot,
  counter: TokenCounter,
  style: RenderStyle = 'json',
  serverName = '',
): number {
  void serverName; // the per-server heading is counted once per server, in countServerTokens
  return counter.count(renderTool(tool, style));
}

export interface ServerTokens {
  /** Per tool, in the server's order. */
  tools: number[];
  /** Heading and separators of the rendering (0 for json). */
  overhead: number;
  total: number;
}

/** Tokens of a server's tool list: per tool plus the rendering's per-server text. */
export function countServerTokens(
  tools: readonly ToolSnapshot[],
  counter: TokenCounter,
  style: RenderStyle,
  serverName: string,
): ServerTokens {
  const perTool = tools.map((t) => countToolTokens(t, counter, style, serverName));
  const overhead = tools.length === 0 ? 0 : counter.count(renderServerOverhead(serverName, tools.length, style));
  return { tools: perTool, overhead, total: perTool.reduce((a, b) => a + b, 0) + overhead };
}

/** Tokens of a server's instructions (sent by clients beside the tool list; reported separately). */
export function countInstructionsTokens(server: Pick<ServerSnapshot, 'instructions'>, counter: TokenCounter): number {
  return server.instructions ? counter.count(server.instructions) : 0;
}

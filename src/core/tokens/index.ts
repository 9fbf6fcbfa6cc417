/** Token counting behind one module (interface; implementation in progress). */
import type { Encoding, ToolSnapshot } from '../../types.js';

export type RenderStyle = 'json' | 'cline';

export interface TokenCounter {
  encoding: Encoding;
  /** Exact token count of `text` with this encoding. Never throws on special-token strings. */
  count(text: string): number;
}

/** A counter for the encoding; loads the encoding lazily. `cacheDir` enables the on-disk count cache. */
export async function createTokenCounter(encoding: Encoding, opts: { cacheDir?: string } = {}): Promise<TokenCounter> {
  void encoding;
  void opts;
  throw new Error('not implemented');
}

/** Tokens of one tool as a client would send it in the given rendering. */
export function countToolTokens(tool: ToolSnapshot, counter: TokenCounter, style: RenderStyle = 'json', serverName = ''): number {
  void tool;
  void counter;
  void style;
  void serverName;
  throw new Error('not implemented');
}

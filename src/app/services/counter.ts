/** Token counters as the commands need them: one-shot for CI gates, cache-backed for the rest. */
import { createTokenCounter, prepareCounter, type RenderStyle, type TokenCounter } from '../../core/tokens/index.js';
import type { Encoding } from '../../core/types.js';

/** How tool definitions are rendered before counting (`--render`). */
export const RENDER_STYLES: readonly RenderStyle[] = ['json', 'cline'];

/** A counter for the encoding (no disk cache: CI runs are one-shot and counts must not depend on local state). */
export async function counterFor(encoding: Encoding): Promise<TokenCounter> {
  return createTokenCounter(encoding);
}

/** A cache-backed counter (no cache when `cacheDir` is undefined) that loads the tokenizer only if one of `texts` is not cached yet. */
export async function counterForTexts(
  encoding: Encoding,
  cacheDir: string | undefined,
  texts: readonly string[],
): Promise<TokenCounter> {
  // Nothing to count (a warm audit answered from its cache): neither the count cache nor the tokenizer is loaded.
  if (!texts.some((t) => t !== ''))
    return createTokenCounter(encoding, {
      tokenize: () => {
        throw new Error('counterForTexts: a text outside the prepared ones was counted');
      },
    });
  const counter = await createTokenCounter(encoding, { cacheDir, deferLoad: true });
  await prepareCounter(counter, texts);
  return counter;
}

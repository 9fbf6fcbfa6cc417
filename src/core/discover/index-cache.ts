/**
 * The discover index cache file: its key and a sealed envelope around encodeIndexCache's bytes. The envelope holds
 * the key it was written under and a SHA-256 of its payload, so a file that was edited, truncated or copied under
 * another key is not trusted (the caller rebuilds the index instead).
 */
import { createHash } from 'node:crypto';
import type { HeadLast } from '../../process/safe-write.js';
import { openSealed, sealBytes, sealOnePass, sealParts } from '../sealed-file.js';
import type { WordVectors } from './vectors.js';
import { resolveWeights, type WeightsInput } from './weights.js';

/** The cache format; bump it whenever the bytes of an index or of this envelope change. */
export const INDEX_CACHE_VERSION = 'index-v6';

const MAGIC = new TextEncoder().encode('mcp-smart/discover-index'); // 24 bytes: the payload stays 8-aligned

/** What an index depends on besides its tools: the BM25 parameters and the word-vector table. */
export function indexParamsText(vectors: WordVectors | undefined, weights?: WeightsInput): string {
  const table = vectors
    ? `${vectors.size}x${vectors.dims}:${vectors.scales[0]}:${vectors.scales[vectors.size - 1]}:${vectors.ranks[vectors.size - 1]}`
    : 'no-vectors';
  return `${INDEX_CACHE_VERSION} ${JSON.stringify(resolveWeights(weights).bm25)} ${table}`;
}

/**
 * The cache key of the index of the tools read from snapshot files whose bytes have the SHA-256 `digest`
 * (readSnapshotSet), with only the `servers` selected (all when empty) and the `hidden` tools (by server) left out:
 * the tools follow from those bytes and that selection, so the parsed schemas need no second walk. 64-bit hex, as
 * indexCacheKey.
 */
export function snapshotIndexKey(
  digest: string,
  servers: readonly string[],
  vectors: WordVectors | undefined,
  weights?: WeightsInput,
  hidden: Readonly<Record<string, readonly string[]>> = {},
): string {
  const h = createHash('sha256');
  h.update(`${indexParamsText(vectors, weights)}\0snapshot ${digest}\0`);
  for (const name of [...new Set(servers)].sort()) h.update(`${name}\0`);
  // The tools a serve section or client filter hides are not indexed: another set of them is another index.
  for (const name of Object.keys(hidden).sort()) h.update(`hidden ${name}\0${[...hidden[name]!].sort().join('\0')}\0`);
  return h.digest('hex').slice(0, 16);
}

/** The file's bytes: magic, SHA-256 of the key, SHA-256 of the payload, payload (sealed-file.ts). */
export function sealIndexCache(key: string, payload: Uint8Array): Uint8Array {
  return sealBytes(MAGIC, key, payload);
}

/** sealIndexCache's file as the arrays it is made of (sealed-file.ts sealParts): the payload is never copied. */
export function sealIndexCacheParts(key: string, parts: readonly Uint8Array[]): Uint8Array[] {
  return sealParts(MAGIC, key, parts);
}

/**
 * sealIndexCache's file for a payload given as a source of parts, made once (sealed-file.ts sealOnePass: its head is
 * written last, over the zeros it starts with).
 */
export function sealIndexCacheSource(key: string, payload: () => Iterable<Uint8Array>): HeadLast {
  return sealOnePass(MAGIC, key, payload());
}

/** The payload sealed under `key`, or null when the file is not one, was written under another key, or was altered. */
export function openIndexCache(key: string, file: Uint8Array): Uint8Array | null {
  return openSealed(MAGIC, key, file);
}

/**
 * A sentence model's output to one unit vector per text: a `sentence_embedding` output ([batch, dims]) as it is,
 * or the tokens' vectors ([batch, sequence, dims], `last_hidden_state`) averaged over the attention mask —
 * sentence-transformers' mean pooling. Both L2-normalised. Pure.
 */

/** Rows of a [batch, dims] output, each L2-normalised. */
export function sentenceRows(data: Float32Array, batch: number, dims: number): Float32Array[] {
  return Array.from({ length: batch }, (_, b) => unit(data.slice(b * dims, (b + 1) * dims)));
}

/** Mean of each text's token vectors where its mask is 1, L2-normalised ([batch, sequence, dims] in). */
export function meanPool(
  data: Float32Array,
  masks: readonly (readonly number[])[],
  sequence: number,
  dims: number,
): Float32Array[] {
  return masks.map((mask, b) => {
    const sum = new Float32Array(dims);
    let count = 0;
    for (let s = 0; s < sequence; s++) {
      if (!mask[s]) continue;
      count++;
      const at = (b * sequence + s) * dims;
      for (let d = 0; d < dims; d++) sum[d]! += data[at + d]!;
    }
    if (count > 0) for (let d = 0; d < dims; d++) sum[d]! /= count;
    return unit(sum);
  });
}

function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let d = 0; d < v.length; d++) v[d]! /= norm;
  return v;
}

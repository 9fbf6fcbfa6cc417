/**
 * The V8 flags serve sets on its own heap at run time (serve/heap-quiet.ts says why). They live here, below serve,
 * because process/code-cache.ts sets them too, before it compiles the start path: V8 accepts a code cache only
 * under the flags it was made with, and serve makes its cache after it has set them.
 */
/** The old generation may grow to the live heap plus this percent before V8's next full collection. */
export const HEAP_GROWING_PERCENT = 40;
/** Set by serve at its start. */
export const SERVE_HEAP_FLAGS = ['--semi-space-growth-factor=1', `--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
/** Set by serve when the process has no `gc` (it takes effect in new contexts only, not in this one). */
export const EXPOSE_GC_FLAG = '--expose-gc';

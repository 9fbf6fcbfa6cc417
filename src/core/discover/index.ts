/** Discover: rank the tools of a setup for a natural-language intent (keyword, bm25, semantic, hybrid). */
// The engines live in engine.ts so that a command can load them without the optional model support.
export * from './engine.js';
export { loadUseLite, type Embed } from './model.js';
export * from './result.js';

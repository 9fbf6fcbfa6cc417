/** Served names live in core/served-names.ts (adopt --scope-from-use names tools as serve does). */
export * from '../core/served-names.js';

/** Default hybrid weights (placeholder shape; the discover module defines the real one). */
export const DEFAULT_WEIGHTS: Record<string, unknown> = {};

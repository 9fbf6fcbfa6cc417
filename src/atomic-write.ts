/** Kept for existing imports: every write goes through the one safe-write function. */
export { writeFileSafe as writeFileAtomic } from './safe-write.js';

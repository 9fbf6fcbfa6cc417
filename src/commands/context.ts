/** The command context moved to the application layer (src/app/context.ts); these names keep imports working. */
export type { AdhocServer, AppContext, CommandContext, CommandOutcome, GlobalOptions } from '../app/context.js';

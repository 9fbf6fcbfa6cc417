/** The flag parsers moved to the application layer (src/app/flags.ts); these names keep imports working. */
export * from '../app/flags.js';

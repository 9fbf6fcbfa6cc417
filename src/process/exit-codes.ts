/** The exit codes of every run (CONTRACT): one constant, documented in the README's exit-code table. */
export const EXIT_CODES = {
  ok: 0,
  checkFailed: 1,
  usage: 2,
  serverFailed: 3,
  internal: 4,
  interrupted: 130,
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

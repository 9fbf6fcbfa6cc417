/** The process edge: everything a command may touch of the outside world goes through Io. */

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  cwd: string;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  platform: NodeJS.Platform;
  /** Abort signal fired on Ctrl-C so live connections can be closed. */
  signal?: AbortSignal;
  /** A yes/no question on the terminal; set by the CLI edge only when stdin and stderr are terminals. */
  confirm?: (message: string) => Promise<boolean>;
}

export interface ProcessLike {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd(): string;
  platform: NodeJS.Platform;
  stdout: { write(s: string): unknown; isTTY?: boolean };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  stdin: { isTTY?: boolean };
}

export function processIo(proc: ProcessLike, signal?: AbortSignal): Io {
  return {
    stdout: (t) => void proc.stdout.write(t),
    stderr: (t) => void proc.stderr.write(t),
    env: proc.env,
    cwd: proc.cwd(),
    stdoutIsTTY: proc.stdout.isTTY === true,
    stderrIsTTY: proc.stderr.isTTY === true,
    stdinIsTTY: proc.stdin.isTTY === true,
    platform: proc.platform,
    signal,
  };
}

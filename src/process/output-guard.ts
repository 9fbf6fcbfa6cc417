/**
 * Standard output as a stream that can go away: a reader that closes early (`| head`) ends the run quietly
 * with its exit code unchanged; any other failed write (a full disk) is a clear error, not a stack trace.
 */
import { SmartError } from './errors.js';
import { writeFailureReason } from './safe-write.js';

export interface GuardedStream {
  write(s: string): unknown;
  on(event: 'error', fn: (e: NodeJS.ErrnoException) => void): unknown;
  isTTY?: boolean;
}

export interface StdoutGuard {
  write(text: string): void;
  /** The failure to report (not for a closed pipe), once every pending write has settled. */
  failure(): SmartError | undefined;
  /** The reader went away (EPIPE): nothing more is written and nothing is reported. */
  closed(): boolean;
}

export function guardStdout(stream: GuardedStream): StdoutGuard {
  let closed = false;
  let failure: SmartError | undefined;
  const fail = (e: NodeJS.ErrnoException): void => {
    closed = true;
    if (e.code === 'EPIPE' || e.code === 'ERR_STREAM_DESTROYED') return;
    failure ??= new SmartError('STDOUT_FAILED', { reason: writeFailureReason(e) ?? e.message }, { cause: e });
  };
  stream.on('error', fail);
  return {
    write(text) {
      if (closed) return;
      try {
        stream.write(text);
      } catch (e) {
        fail(e as NodeJS.ErrnoException);
      }
    },
    failure: () => failure,
    closed: () => closed,
  };
}

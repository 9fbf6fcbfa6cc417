// CPU time a process has used, from Linux's /proc: the figure a shared machine's load moves least.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system, ms) process `pid` has used so far; throws when it is gone. */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 Hz).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time (ms, ns resolution) the live threads of process `pid` have used so far: the scheduler's own sum per thread
 * (/proc/<pid>/task/<tid>/schedstat), not clock ticks. A delta over one call of a millisecond or two is read exactly,
 * where processCpuMs's 10 ms ticks read 0 or 10 (a sum of 400 such deltas is ±~11 %: bench/RESULTS.md, `findrt2`).
 * A thread that exited is no longer counted: for a long-lived process (serve's main thread and V8's workers).
 */
export function liveThreadsCpuMs(pid) {
  let ns = 0;
  let read = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      read++;
    } catch {
      // the thread exited between the listing and the read (or the kernel keeps no schedstat)
    }
  }
  // A kernel without schedstat: the ticks, as before.
  return read > 0 ? ns / 1e6 : processCpuMs(pid);
}

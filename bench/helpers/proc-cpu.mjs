// CPU time a process has used, from Linux's /proc: the figure a shared machine's load moves least.
import { readFileSync } from 'node:fs';

/** CPU time (user + system, ms) process `pid` has used so far; throws when it is gone. */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks (100 Hz).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

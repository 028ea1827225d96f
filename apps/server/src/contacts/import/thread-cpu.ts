/** CPU time of the calling thread, for the import's log of where its time went. */
import { readFileSync } from 'node:fs';

/** Linux counts thread CPU time in ticks of 1/100 s on every platform it runs on. */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU the calling thread has used, from Linux's /proc; null where there is no such file. */
export function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name in parentheses, from the state (field 3) on: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

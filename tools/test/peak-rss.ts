// The peak resident memory of a launched target, for the hostile-input tests' memory bounds.
import { readFileSync } from 'node:fs';
import type { Launched } from '../../conformance/harness/launch.ts';
import { marked } from '../../conformance/harness/sweep.ts';

/** Peak resident memory (MB, VmHWM) of the target's processes so far; 0 when none is found. */
export function peakRssMb(target: Launched): number {
  let peak = 0;
  for (const pid of marked('PORT', String(target.port))) {
    try {
      const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {
      // gone meanwhile
    }
  }
  return peak;
}

// What the hostile-input tests share: the peak memory of a launched target, and slow clients holding it.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
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

/** Runs `during` while `count` clients hold connections to `port` with the head `partialHead` half sent. */
export async function withSlowClients<T>(port: number, partialHead: string, count: number, during: () => Promise<T>): Promise<T> {
  const slow: Socket[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const s = connect({ host: '127.0.0.1', port });
      s.on('error', () => {});
      s.write(partialHead);
      slow.push(s);
    }
    return await during();
  } finally {
    for (const s of slow) s.destroy();
  }
}

// Which TCP ports the processes of a started target listen on (Linux /proc): a target's processes are found
// by the PORT value of their environment (a reserved port, unique in the run), their sockets by inode.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Launched } from '../harness/index.ts';
import { marked } from '../harness/sweep.ts';
import { sleep } from './poll.ts';

const LISTEN = '0A';

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[] = [];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Listening TCP ports (IPv4 and IPv6) of the target's processes; undefined where /proc cannot tell. */
export function listeningPorts(launched: Launched): number[] | undefined {
  const pids = marked('PORT', String(launched.port));
  if (pids.length === 0) return undefined;
  const inodes = new Set(pids.flatMap((pid) => [...socketInodes(pid)]));
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== LISTEN || !inodes.has(cols[9]!)) continue;
      ports.add(Number.parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** Every port the target's processes listen on at some moment within `ms` (sampled every 100 ms); undefined
 * where /proc cannot tell. */
export async function listeningPortsOver(launched: Launched, ms: number): Promise<number[] | undefined> {
  const seen = new Set<number>();
  const end = Date.now() + ms;
  for (;;) {
    const now = listeningPorts(launched);
    if (now === undefined) return undefined;
    for (const p of now) seen.add(p);
    if (Date.now() >= end) return [...seen].sort((a, b) => a - b);
    await sleep(100);
  }
}

// A benchmark's server process: started pinned to given cores (when taskset exists), in a folder, ready once
// its port accepts connections; its CPU time and its process count read from /proc (with its descendants:
// nginx's worker, a server's workers), so that a request's cost can be measured whatever else the machine runs.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { portOpen } from '../../conformance/harness/launch.ts';
import { HAS_TASKSET, stopProcess } from './peers.ts';

const START_MS = 10_000;
const STOP_MS = 5_000;

export interface Server {
  port: number;
  /** What the process wrote on stderr so far. */
  stderr(): string;
  /** CPU time the process and its descendants (nginx's worker, the gateway's workers) used so far, in ms;
   * undefined without /proc. */
  cpuMs(): CpuTime | undefined;
  /** How many processes the server runs now (it and its descendants); undefined without /proc. */
  processes(): number | undefined;
  stop(): Promise<void>;
}

export interface CpuTime {
  user: number;
  system: number;
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICK_MS = 10;

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** utime + stime of `pid` (fields 14 and 15 of /proc/PID/stat, after the parenthesised name) and of its
 * children, recursively; undefined when /proc cannot tell. */
function treeCpuMs(pid: number): CpuTime | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const time = { user: Number(fields[11]) * TICK_MS, system: Number(fields[12]) * TICK_MS };
  const children = readProc(`/proc/${pid}/task/${pid}/children`);
  for (const child of children?.trim().split(/\s+/).filter(Boolean) ?? []) {
    const more = treeCpuMs(Number(child));
    time.user += more?.user ?? 0;
    time.system += more?.system ?? 0;
  }
  return time;
}

function treeSize(pid: number): number | undefined {
  const children = readProc(`/proc/${pid}/task/${pid}/children`);
  if (children === undefined) return undefined;
  return 1 + children.trim().split(/\s+/).filter(Boolean).reduce((n, child) => n + (treeSize(Number(child)) ?? 0), 0);
}

/** Starts `command` pinned to `cores`, in `dir`, with `env` added to this environment, and waits until `port`
 * accepts connections. */
export async function startServer(command: string[], port: number, cores: string, dir: string, env?: Record<string, string>): Promise<Server> {
  const argv = HAS_TASKSET ? ['taskset', '-c', cores, ...command] : command;
  const child = spawn(argv[0]!, argv.slice(1), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const server: Server = {
    port,
    stderr: () => stderr,
    cpuMs: () => treeCpuMs(child.pid!),
    processes: () => treeSize(child.pid!),
    stop: () => stopProcess(child, STOP_MS),
  };
  for (let waited = 0; waited < START_MS; waited += 50) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await portOpen(port)) return server;
    await new Promise((r) => setTimeout(r, 50));
  }
  await server.stop();
  throw new Error(`${command.join(' ')} did not listen on ${port}${stderr ? `:\n${stderr}` : ''}`);
}

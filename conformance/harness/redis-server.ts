// A throwaway Redis for cases that need one (Debian's redis-server): on a free loopback port, nothing saved to
// disk, stopped (and its port released) by `stop`. REDIS_SERVER names another binary.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { freePorts, releasePorts } from './free-ports.ts';
import { portOpen } from './launch.ts';

export const REDIS_SERVER = process.env.REDIS_SERVER || '/usr/bin/redis-server';

export const hasRedisServer = (): boolean => existsSync(REDIS_SERVER);

export interface RedisServer {
  url: string;
  port: number;
  /** Kills it (the port stays reserved); `restart` brings it back on the same port, empty. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  /** Kills it and releases its port. */
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const [port] = await freePorts(1);
  let child: ChildProcess | undefined;
  const run = async (): Promise<void> => {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = started;
    for (let i = 0; i < 250; i++) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
      if (await portOpen(port!)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    started.kill('SIGKILL');
    throw new Error('redis-server did not accept connections within 5 s');
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await run();
  return {
    url: `redis://127.0.0.1:${port}`,
    port: port!,
    kill,
    restart: run,
    close: async () => {
      await kill();
      releasePorts([port!]);
    },
  };
}

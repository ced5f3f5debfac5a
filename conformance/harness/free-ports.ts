// Free loopback ports for targets. The kernel may hand the same free port to two cases at once (a port
// is only reserved while bound, and targets bind it later), so every port handed out is also claimed in
// a registry shared by all workers: an exclusive lock file holding the claimer's pid. A claim of a dead
// process is stale and taken over. Claims end with `releasePorts` (or with the process).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A dot name: it stays between runs, and is not one of the case folders (conform-*) a run must remove. One
// per user: a folder another user made is not writable, and runs of different users cannot free each other's
// claims anyway.
const REGISTRY = join(tmpdir(), `.conform-ports-${process.getuid?.() ?? 'user'}`);
const MAX_TRIES = 50;
const claimed = new Set<number>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims `port` for this process; false when a live process holds it. */
function claim(port: number): boolean {
  mkdirSync(REGISTRY, { recursive: true });
  const file = join(REGISTRY, String(port));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      claimed.add(port);
      return true;
    } catch {
      const holder = Number(readFileSync(file, { encoding: 'utf8', flag: 'r' }) || 0);
      if (holder && alive(holder)) return false;
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  return false;
}

export function releasePorts(ports: number[]): void {
  for (const port of ports) {
    if (claimed.delete(port)) rmSync(join(REGISTRY, String(port)), { force: true });
  }
}

process.once('exit', () => releasePorts([...claimed]));

async function bindAny(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return server;
}

/** Reserves `count` distinct free loopback ports, each claimed in the registry until released. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > MAX_TRIES) throw new Error(`no free port after ${MAX_TRIES} tries`);
      const server = await bindAny();
      servers.push(server); // held until all are chosen, so the kernel cannot repeat one of them
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port assigned');
      if (claim(address.port)) ports.push(address.port);
    }
    return ports;
  } catch (err) {
    releasePorts(ports);
    throw err;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

/** Claims a fixed port (a documented default such as 4000 or 5100) in the registry, waiting up to `waitMs`
 * while a case of another worker holds it; false when it stays claimed. Free it with `releasePorts`. */
export async function claimPort(port: number, waitMs = 30_000): Promise<boolean> {
  const until = Date.now() + waitMs;
  while (!claim(port)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/** A server of the suite (a stub, an upstream, a proxy) that listens on loopback. */
interface Listener {
  listen(port: number, host: string, done: () => void): unknown;
  once(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
  off(event: 'error', listener: (err: NodeJS.ErrnoException) => void): unknown;
}

/** Listens `server` on a loopback port claimed in the registry, and resolves with it. Not port 0: a port
 * the kernel picks may be one a case has reserved for a target that has not bound it yet, and the target
 * would then find it taken (or the case would reach the wrong server). Free the claim with releasePorts
 * once the server is closed. */
export async function listenOnFreePort(server: Listener): Promise<number> {
  for (let tries = 0; ; tries++) {
    const [port] = await freePorts(1);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port!, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return port!;
    } catch (err) {
      releasePorts([port!]);
      // Taken by a process outside the registry meanwhile: another port.
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= MAX_TRIES) throw err;
    }
  }
}

// Free loopback ports for targets. A port is only reserved while bound, and targets bind it later, so
// - ports are chosen outside the kernel's ephemeral range: there, any process that listens on port 0 or
//   opens a connection could take the port between the choice and the target's bind (the target then exits
//   with EADDRINUSE while the other process answers on its port, and a case talks to the wrong server);
// - every port handed out is also claimed in a registry shared by all workers: an exclusive lock file holding
//   the claimer's pid. A claim of a dead process is stale and taken over. Claims end with `releasePorts` (or
//   with the process).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alive } from './sweep.ts';

// A dot name: it stays between runs, and is not one of the case folders (conform-*) a run must remove. One
// per user: a folder another user made is not writable, and runs of different users cannot free each other's
// claims anyway. Not under TMPDIR: runs given temporary folders of their own still share the loopback ports
// (two such runs once handed the same port to two targets).
const REGISTRY = join(process.platform === 'win32' ? tmpdir() : '/tmp', `.conform-ports-${process.getuid?.() ?? 'user'}`);
const MAX_TRIES = 200;
/** The kernel's ephemeral ports (Linux's default when its setting cannot be read). */
const EPHEMERAL = ephemeralRange();
/** Where ports are chosen: above the usual fixed ports of servers, below the ephemeral range (or above it
 * when the range starts too low to leave room). */
const CHOSEN: [number, number] = EPHEMERAL[0] >= 20_000 ? [15_000, EPHEMERAL[0] - 1] : [EPHEMERAL[1] + 1, 65_535];

function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low! > 0 && high! >= low!) return [low!, high!];
  } catch {
    // not Linux: the IANA range, which macOS and Windows use
    return [49_152, 65_535];
  }
  return [32_768, 60_999];
}
const claimed = new Set<number>();

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

/** A server bound to a random port of CHOSEN, or undefined when that port is taken. */
async function bindChosen(): Promise<Server | undefined> {
  const port = CHOSEN[0] + Math.floor(Math.random() * (CHOSEN[1] - CHOSEN[0] + 1));
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return server;
  } catch {
    return undefined;
  }
}

/** Reserves `count` distinct free loopback ports, each claimed in the registry until released. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > MAX_TRIES) throw new Error(`no free port after ${MAX_TRIES} tries`);
      const server = await bindChosen();
      if (!server) continue;
      servers.push(server); // held until all are chosen, so no port is handed out twice
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

/** Listens `server` on a loopback port claimed in the registry, and resolves with it: a port a case can
 * name to a target before the server is up (port 0 would do for a server no target has to know in advance).
 * Free the claim with releasePorts once the server is closed. */
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

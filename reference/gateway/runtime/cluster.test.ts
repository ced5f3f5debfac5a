// `workers: 2` end to end: `gateway run` processes (the primary and its two workers) over recording upstreams
// on loopback. Which worker forwarded a request is read from the operating system, not from the gateway: the
// upstream records the source port of each request, and /proc tells which process owns that socket. The
// gateways run with NODE_CLUSTER_SCHED_POLICY=rr, so that connections alternate between the workers (the
// default lets the kernel choose, at random on an idle machine); what is judged holds under either.
import { readdirSync, readFileSync, readlinkSync, rmSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type ServingGateway, serveGateway } from '../cli/run-gateway-cli.ts';
import type { RateLimitCounters, StatusObject, UpstreamEntry } from './gateway-runtime.ts';
import { ask, sleep, startUpstream, type TestUpstream, until } from './test-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'gateway-cluster-test-'));
const gateways: ServingGateway[] = [];
const upstreams: TestUpstream[] = [];

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.kill()));
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An upstream answering its name; each request's source port is kept. */
async function upstream(name: string, handler?: Parameters<typeof startUpstream>[1]): Promise<TestUpstream & { ports: number[] }> {
  const ports: number[] = [];
  const started = await startUpstream(name, (req, res, hit) => {
    if (req.url !== '/health') ports.push(req.socket.remotePort!);
    if (handler !== undefined) handler(req, res, hit);
    else res.end(name);
  });
  upstreams.push(started);
  return Object.assign(started, { ports });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The gateway's worker processes: the primary's children running the gateway (not tsx's helpers). */
function workerPids(primary: number): number[] {
  let children: string;
  try {
    children = readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8');
  } catch {
    return [];
  }
  return children
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('main.ts');
      } catch {
        return false;
      }
    });
}

/** Which of `pids` owns the TCP socket with local port `port` on loopback (Linux /proc). */
function ownersOf(ports: readonly number[], pids: readonly number[]): Map<number, number> {
  const inodeOfPort = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const cols = row.trim().split(/\s+/);
      inodeOfPort.set(cols[9]!, Number.parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  const owners = new Map<number, number>();
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let link: string;
      try {
        link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      const port = inode === undefined ? undefined : inodeOfPort.get(inode);
      if (port !== undefined && ports.includes(port)) owners.set(port, pid);
    }
  }
  return owners;
}

/** The worker pids that sent the upstream the requests it saw (from the source ports), sorted. */
function sendersOf(up: { ports: number[] }, pids: readonly number[]): number[] {
  const owners = ownersOf(up.ports, pids);
  return sorted(new Set(up.ports.map((port) => owners.get(port) ?? -1)));
}

const sorted = (pids: Iterable<number>): number[] => [...pids].sort((x, y) => x - y);

interface Started {
  gateway: ServingGateway;
  port: number;
  admin: string;
  file: string;
  pids: number[];
}

async function start(name: string, body: (port: number) => string, shutdownTimeoutSecs = 5): Promise<Started> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const admin = `http://127.0.0.1:${adminPort}`;
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `global:\n  admin: { bind: "127.0.0.1:${adminPort}" }\n  shutdownTimeoutSecs: ${shutdownTimeoutSecs}\nworkers: 2\n${body(port)}`);
  const gateway = serveGateway(['-c', file], { cwd: dir, env: { NODE_CLUSTER_SCHED_POLICY: 'rr' } });
  gateways.push(gateway);
  await gateway.ready;
  const pids = workerPids(gateway.child.pid!);
  return { gateway, port, admin, file, pids };
}

async function adminJson<T>(admin: string, path: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const res = await fetch(`${admin}${path}`, {
    ...init,
    headers: init?.body === undefined ? {} : { 'content-type': 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as T };
}

const post = (admin: string, path: string, body?: object) =>
  adminJson<Record<string, unknown>>(admin, path, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

/** `n` requests, each on a connection of its own (so the workers take turns). */
async function send(port: number, path: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await ask(port, path)).status);
  return statuses;
}

const siteWith = (targets: string[], extra = '') => (port: number) => `sites:
  - port: ${port}
    routes:
      - path: /api
        targets:
${targets.map((url) => `          - url: "${url}"`).join('\n')}
${extra}`;

test.serial('workers: 2 runs two worker processes that share the traffic, changes and counters', async (t) => {
  const a = await upstream('A');
  const b = await upstream('B');
  const c = await upstream('C');
  const g = await start('shared', siteWith([a.url, b.url], '    metrics: { path: /metrics }\n'));
  t.is(g.pids.length, 2, 'two worker processes');
  t.false(g.pids.includes(g.gateway.child.pid!));

  // Traffic: each connection goes to the next worker; both forward.
  t.deepEqual(await send(g.port, '/api/x', 10), Array(10).fill(200));
  t.deepEqual(sendersOf({ ports: [...a.ports, ...b.ports] }, g.pids), sorted(g.pids), 'both workers forwarded requests');

  // The counters are the gateway's: the sums over the workers.
  const listed = await adminJson<{ upstreams: UpstreamEntry[] }>(g.admin, '/upstreams');
  t.is(listed.body.upstreams.reduce((n, u) => n + u.selected.total, 0), 10);
  t.is(listed.body.upstreams.reduce((n, u) => n + u.responses['2xx'], 0), 10);
  t.is(listed.body.upstreams.find((u) => u.url === a.url)?.responses['2xx'], a.ports.length);
  t.like((await adminJson<StatusObject>(g.admin, '/status')).body, { status: 'running', inflight: 0, configured_upstreams: 2 });
  // The metrics path, whichever worker answers it, counts every request.
  for (let i = 0; i < 2; i++) {
    const metrics = (await ask(g.port, '/metrics')).body;
    const total = [...metrics.matchAll(/^gateway_upstream_requests_total\{[^}]*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    t.is(total, 10, 'metrics count every worker\'s requests');
  }

  // A runtime change is applied by every worker before the answer: C alone is left, and both workers use it.
  t.is((await post(g.admin, '/upstreams/add', { route: '/api', target: c.url })).status, 200);
  t.is((await post(g.admin, '/upstreams/remove', { route: '/api', target: a.url })).status, 200);
  t.is((await post(g.admin, '/upstreams/remove', { route: '/api', target: b.url })).status, 200);
  t.deepEqual(await send(g.port, '/api/y', 6), Array(6).fill(200));
  t.is(c.ports.length, 6, 'every request went to the added target');
  t.deepEqual(sendersOf(c, g.pids), sorted(g.pids), 'both workers routed to the added target');

  // A killed worker is replaced (a log line), and the new one has the runtime changes.
  const [victim, survivor] = g.pids;
  process.kill(victim!, 'SIGKILL');
  // The worker processes as seen when the new one came (a second look once saw only the survivor: CI, loaded).
  let pids: number[] = [];
  const replaced = (): boolean => {
    pids = workerPids(g.gateway.child.pid!).filter((pid) => pid !== victim);
    return pids.length === 2;
  };
  await until(replaced, 10_000, 'a new worker');
  const fresh = pids.find((pid) => pid !== survivor)!;
  t.regex(g.gateway.output.stderr, new RegExp(`worker ${victim} exited unexpectedly \\(signal SIGKILL\\); starting a new worker`));
  // It takes connections once it listens (its start-up is slow on a loaded machine): requests until both
  // workers have forwarded some, for at most 15 s.
  const seen = new Set<number>();
  for (const deadline = Date.now() + 15_000; seen.size < 2 && Date.now() < deadline; ) {
    c.ports.length = 0;
    t.is((await ask(g.port, '/api/z')).status, 200);
    // A sender not found among the workers (its socket already gone) tells nothing either way.
    for (const pid of sendersOf(c, pids)) if (pids.includes(pid)) seen.add(pid);
    await sleep(25);
  }
  t.true(seen.has(fresh), `the new worker routes to the target added before it started (seen ${sorted(seen)}, workers ${pids}): ${g.gateway.output.stderr.slice(-500)}`);
  t.is(a.ports.length + b.ports.length, 10, 'the removed targets got nothing more');

  // The primary killed outright: its workers do not outlive it.
  process.kill(g.gateway.child.pid!, 'SIGKILL');
  await g.gateway.closed;
  await until(() => pids.every((pid) => !alive(pid)), 5000, 'the workers gone with their primary');
  t.true(pids.every((pid) => !alive(pid)));
});

test.serial('workers: 2 rate limits hold for the gateway as a whole; a reload resets them and the runtime changes', async (t) => {
  const a = await upstream('A');
  const b = await upstream('B');
  const g = await start('limits', siteWith([a.url], '    rateLimit: { requests: 3, windowMs: 60000 }\n'));
  t.deepEqual(await send(g.port, '/api/1', 6), [200, 200, 200, 429, 429, 429]);
  t.deepEqual(sendersOf(a, g.pids), sorted(g.pids), 'the requests that passed went through both workers');
  t.deepEqual((await adminJson<RateLimitCounters>(g.admin, '/rate-limits')).body, { [`*:${g.port}`]: { '*': { passed: 3, rejected: 3 } } });

  t.is((await post(g.admin, '/upstreams/add', { route: '/api', target: b.url, weight: 2 })).status, 200);
  const reload = await post(g.admin, '/reload');
  t.is(reload.status, 200, JSON.stringify(reload.body));
  t.deepEqual((await adminJson<RateLimitCounters>(g.admin, '/rate-limits')).body, { [`*:${g.port}`]: { '*': { passed: 0, rejected: 0 } } });
  const listed = await adminJson<{ routes: { targets: { url: string }[] }[] }>(g.admin, '/upstreams');
  t.deepEqual(
    listed.body.routes[0]?.targets.map((target) => target.url),
    [a.url],
  );
  b.ports.length = 0;
  t.deepEqual(await send(g.port, '/api/2', 4), [200, 200, 200, 429]);
  t.is(b.ports.length, 0, 'no worker routes to the target the reload dropped');

  // POST /shutdown: every process exits.
  t.deepEqual((await post(g.admin, '/shutdown')).body, { status: 'shutting_down' });
  t.is((await g.gateway.closed).code, 0);
  await until(() => g.pids.every((pid) => !alive(pid)), 5000, 'the workers gone');
  t.true(g.pids.every((pid) => !alive(pid)));
});

test.serial('workers: 2 an upstream one worker ejects is ejected in every worker', async (t) => {
  const failing = await upstream('failing', (_req, res) => {
    res.statusCode = 500;
    res.end('no');
  });
  const good = await upstream('good');
  const g = await start('outlier', siteWith([failing.url, good.url], '    outlierDetection: { consecutive5xx: 2, baseEjectionMs: 60000 }\n'));
  // Connections alternate between the workers, and each worker alternates the targets: requests 1, 2 and 5
  // go to the failing upstream, the 5th one's worker reaches 2 failures and ejects it; the 6th one's worker
  // would send it its 2nd request, but the ejection reached it first.
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) {
    statuses.push((await ask(g.port, '/api/x')).status);
    await sleep(50);
  }
  t.deepEqual(statuses, [500, 500, 200, 200, 500, 200, 200, 200, 200, 200]);
  t.is(failing.ports.length, 3);
  const listed = await adminJson<{ upstreams: UpstreamEntry[] }>(g.admin, '/upstreams');
  t.like(listed.body.upstreams[0], { url: failing.url, state: 'ejected', ejected: true, responses: { '5xx': 3 } });
});

test.serial('workers: 2 SIGTERM: every worker drains its requests, then every process has exited', async (t) => {
  const slow = await upstream('slow', (_req, res) => {
    setTimeout(() => res.end('slow'), 600);
  });
  const g = await start('drain', siteWith([slow.url]), 5);
  const all = [g.gateway.child.pid!, ...g.pids];
  // Two requests under way, on separate connections (one per worker).
  const failed = (error: Error) => ({ status: 0, headers: {}, body: error.message });
  const pending = [ask(g.port, '/api/a').catch(failed), ask(g.port, '/api/b').catch(failed)];
  await until(() => slow.ports.length === 2, 3000, 'both requests at the upstream');
  t.deepEqual(sendersOf(slow, g.pids), sorted(g.pids), 'one request in each worker');
  g.gateway.child.kill('SIGTERM');
  const answers = await Promise.all(pending);
  t.deepEqual(
    answers.map((answer) => [answer.status, answer.body]),
    [
      [200, 'slow'],
      [200, 'slow'],
    ],
  );
  const end = await g.gateway.closed;
  t.is(end.code, 0, end.stderr);
  await until(() => all.every((pid) => !alive(pid)), 5000, 'every process gone');
  t.true(all.every((pid) => !alive(pid)));
});

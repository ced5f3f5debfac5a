// An upstream killed under load, with the reference gateway in front of two (outlier detection and retries
// on, no active health checks: the passive cycle alone): the killed one's state in GET /upstreams goes
// ejected, then half-open when its backoff ends, ejected again with a doubled backoff when the probe request
// fails while it is down, and healthy once a probe succeeds after it is back; clients get no error at all
// (the retries take every request the dead upstream fails to another one). While b is down a probe fails at
// once; back, it answers slowly for its first second, so the half-open probe is seen in flight.
//
//   npx tsx tools/demo/gateway-outage.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { freePort, listen } from './demo-ports.ts';

const GATEWAY = join(PROJECT_ROOT, 'reference/gateway/bin/gateway.js');
const CLIENTS = 8;
const DOWN_AT_MS = 2_000;
const BACK_AT_MS = 7_000;
const END_AT_MS = 12_000;

/** An upstream answering its name; `slowMs`: its answers take that long during the second after its first
 * request (a service warming up). */
function answering(name: string, slowMs = 0): Server {
  let ready: number | undefined;
  return createServer((_req, res) => {
    ready ??= Date.now() + 1_000;
    if (Date.now() < ready && slowMs > 0) setTimeout(() => res.end(name), slowMs);
    else res.end(name);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'gateway-outage-'));
const a = answering('a');
let b = answering('b');
const [aPort, bPort, port, adminPort] = [await listen(a), await listen(b), await freePort(), await freePort()];
const bUrl = `http://127.0.0.1:${bPort}`;
const config = `global:
  admin: { bind: "127.0.0.1:${adminPort}" }
sites:
  - port: ${port}
    routes:
      - path: /api
        targets: [{ url: "http://127.0.0.1:${aPort}" }, { url: "${bUrl}" }]
    outlierDetection: { consecutive5xx: 3, baseEjectionMs: 1000, maxEjectionMs: 8000 }
    retries: { attempts: 1 }
`;
writeFileSync(join(dir, 'gateway.yaml'), config);
console.log(`gateway.yaml:\n${config}`);
const run = spawn(process.execPath, [GATEWAY, 'run', '-c', 'gateway.yaml'], { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });

let started = Date.now();
const at = () => `${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const statuses = new Map<string, number>();
let answeredByB = 0;

async function client(): Promise<void> {
  while (Date.now() - started < END_AT_MS) {
    let key: string;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/item`);
      const body = await res.text();
      key = String(res.status);
      if (body === 'b') answeredByB++;
    } catch (error) {
      key = `network error (${(error as Error).cause ?? error})`;
    }
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  }
}

/** Prints the killed upstream's entry each time it changes (busy and healthy, which alternate with every
 * request under load, shown as one). */
async function watch(): Promise<void> {
  let last = '';
  while (Date.now() - started < END_AT_MS + 500) {
    const res = await fetch(`http://127.0.0.1:${adminPort}/upstreams`).catch(() => undefined);
    if (res?.ok) {
      const entry = ((await res.json()) as { upstreams: Record<string, unknown>[] }).upstreams.find((u) => u['url'] === bUrl);
      const state = entry?.['state'] === 'busy' || entry?.['state'] === 'healthy' ? 'healthy/busy' : entry?.['state'];
      const shown = entry && `state ${state}, healthy ${entry['healthy']}, ejected ${entry['ejected']}, consecutive_5xx ${entry['consecutive_5xx']}, consecutive_failures ${entry['consecutive_failures']}`;
      if (shown && shown !== last) console.log(`${at()}  b: ${shown}`);
      last = shown ?? last;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

try {
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/__health__`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  started = Date.now();
  const load = Array.from({ length: CLIENTS }, client);
  const watching = watch();
  setTimeout(() => {
    console.log(`${at()}  -- b killed (its server closed, its connections cut)`);
    b.close();
    b.closeAllConnections();
  }, DOWN_AT_MS);
  setTimeout(() => {
    b = answering('b', 400);
    listen(b, bPort).then(() => console.log(`${at()}  -- b back on its port`));
  }, BACK_AT_MS);
  await Promise.all([...load, watching]);
  const total = [...statuses.values()].reduce((x, y) => x + y, 0);
  console.log(`\nclient answers over ${END_AT_MS / 1000} s, ${CLIENTS} clients: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')} (of ${total}); answered by b: ${answeredByB}`);
} finally {
  run.kill('SIGTERM');
  a.close();
  b.close();
  await new Promise((resolve) => run.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}

// `gateway run` end to end: a real gateway process over a real upstream on loopback, the admin API called over
// HTTP and through the CLI as processes, probe, shutdown by POST /shutdown and by SIGTERM, refused configs.
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { gatewayCli, type ServingGateway, serveGateway } from './run-gateway-cli.ts';

const TOKEN = 'run-test-token';
const dir = mkdtempSync(join(tmpdir(), 'gateway-run-test-'));
const upstreams: Server[] = [];
const gateways: ServingGateway[] = [];

test.after.always(async () => {
  await Promise.all(gateways.map((gateway) => gateway.kill()));
  await Promise.all(upstreams.map((server) => new Promise((resolve) => server.close(resolve))));
  rmSync(dir, { recursive: true, force: true });
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A port free a moment ago (the gateway's config needs fixed ports). */
async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An upstream answering `hello from <name>` to everything. */
async function upstream(name: string): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(`hello from ${name} ${req.url}`);
  });
  upstreams.push(server);
  return `http://127.0.0.1:${await listen(server)}`;
}

/** The TCP ports process `pid` listens on (Linux /proc). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]];
      } catch {
        return [];
      }
    }),
  );
  const rows = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => readFileSync(file, 'utf8').trim().split('\n').slice(1));
  const ports = rows.map((row) => row.trim().split(/\s+/)).filter((cols) => cols[3] === '0A' && inodes.has(cols[9]));
  return [...new Set(ports.map((cols) => Number.parseInt(cols[1]!.split(':')[1]!, 16)))].sort((x, y) => x - y);
}

function writeConfig(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function serve(args: string[], env: Record<string, string> = {}): ServingGateway {
  const gateway = serveGateway(args, { cwd: dir, env });
  gateways.push(gateway);
  return gateway;
}

const siteConfig = (port: number, target: string) => `sites:
  - port: ${port}
    routes:
      - path: /
        targets:
          - url: "${target}"
`;

test.serial('run: proxies, the admin API with its token over HTTP and the CLI, then the CLI shutdown ends it with 0', async (t) => {
  const a = await upstream('A');
  const b = await upstream('B');
  const [port, adminPort] = [await freePort(), await freePort()];
  const admin = `127.0.0.1:${adminPort}`;
  writeConfig('gateway.yaml', `global:\n  admin: { bind: "${admin}", token: "$RUN_TEST_TOKEN" }\n${siteConfig(port, a)}`);
  const gateway = serve([], { RUN_TEST_TOKEN: TOKEN });
  t.is(await gateway.ready, `gateway listening on ${port} (admin ${admin})`);
  t.deepEqual(listeningPorts(gateway.child.pid!), [port, adminPort].sort((x, y) => x - y));

  const proxied = await fetch(`http://127.0.0.1:${port}/x?y=1`);
  t.is(await proxied.text(), 'hello from A /x?y=1');

  const anonymous = await fetch(`http://${admin}/status`);
  t.is(anonymous.status, 401);
  await anonymous.body?.cancel();
  const status = await fetch(`http://${admin}/status`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  t.like(await status.json(), { status: 'running', inflight: 0, sites: 1, configured_upstreams: 1, config_path: join(dir, 'gateway.yaml') });

  const env = { GATEWAY_ADMIN: admin, GATEWAY_ADMIN_TOKEN: TOKEN };
  const table = await gatewayCli(['status', '--upstream'], { env });
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^URL +STATE +HEALTHY +LATENCY_MS +ACTIVE +5XX +EJECTED\n/);
  t.true(table.stdout.includes(a));

  const add = await gatewayCli(['upstreams', 'add', '--route', '/', '--target', b, '--weight', '3'], { env });
  t.is(add.code, 0, add.stderr);
  t.deepEqual(JSON.parse(add.stdout), { status: 'ok', site: '*', route: '/', target: b, weight: 3 });
  const listed = JSON.parse((await gatewayCli(['upstreams'], { env })).stdout) as { routes: { targets: { url: string; weight: number }[] }[] };
  t.deepEqual(
    listed.routes[0]?.targets.map((target) => [new URL(target.url).origin, target.weight]),
    [
      [a, 1],
      [b, 3],
    ],
  );

  const unknown = await gatewayCli(['upstreams', 'remove', '--route', '/nope', '--target', b], { env });
  t.is(unknown.code, 1);
  t.regex(unknown.stderr, /^error: 404 /);

  const reload = await gatewayCli(['reload'], { env });
  t.is(reload.code, 0, reload.stderr);
  t.is(JSON.parse(reload.stdout).status, 'ok');
  const after = JSON.parse((await gatewayCli(['upstreams'], { env })).stdout) as { routes: { targets: unknown[] }[] };
  t.is(after.routes[0]?.targets.length, 1);

  const shutdown = await gatewayCli(['shutdown'], { env });
  t.is(shutdown.code, 0, shutdown.stderr);
  t.deepEqual(JSON.parse(shutdown.stdout), { status: 'shutting_down' });
  const end = await gateway.closed;
  t.is(end.code, 0, end.stderr);
  const gone = await gatewayCli(['status'], { env });
  t.is(gone.code, 1);
  t.regex(gone.stderr, new RegExp(`^error: cannot reach the admin server at ${admin}`));
});

test.serial('POST /shutdown answers at once, lets the request in flight finish, refuses new ones, exits 0', async (t) => {
  const slow = createServer((_req, res) => {
    setTimeout(() => res.end('slow answer'), 1500);
  });
  upstreams.push(slow);
  const [port, adminPort] = [await freePort(), await freePort()];
  const file = writeConfig('drain.yaml', `global:\n  admin: { bind: "127.0.0.1:${adminPort}" }\n  shutdownTimeoutSecs: 10\n${siteConfig(port, `http://127.0.0.1:${await listen(slow)}`)}`);
  const gateway = serve(['-c', file]);
  await gateway.ready;
  const inFlight = fetch(`http://127.0.0.1:${port}/`).then(async (res) => [res.status, await res.text()]);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = Date.now();
  const shutdown = await fetch(`http://127.0.0.1:${adminPort}/shutdown`, { method: 'POST' });
  t.deepEqual(await shutdown.json(), { status: 'shutting_down' });
  t.true(Date.now() - started < 1000, 'answered before the drain ended');
  await new Promise((resolve) => setTimeout(resolve, 200));
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/`));
  t.deepEqual(await inFlight, [200, 'slow answer']);
  const end = await gateway.closed;
  t.is(end.code, 0, end.stderr);
});

test.serial('run without global.admin opens no admin port; SIGTERM ends it with 0', async (t) => {
  const port = await freePort();
  const file = writeConfig('no-admin.yaml', siteConfig(port, await upstream('C')));
  const gateway = serve(['-c', file]);
  t.is(await gateway.ready, `gateway listening on ${port}`);
  t.deepEqual(listeningPorts(gateway.child.pid!), [port]);
  t.is(await (await fetch(`http://127.0.0.1:${port}/`)).text(), 'hello from C /');
  gateway.child.kill('SIGTERM');
  const end = await gateway.closed;
  t.is(end.code, 0, end.stderr);
});

test.serial('run with an invalid config: "error: <field>: <reason>" on stderr, exit 1', async (t) => {
  const file = writeConfig('bad.yaml', `${siteConfig(await freePort(), 'http://127.0.0.1:1')}    tls: { cert: c.pem, key: k.pem, versions: ["1.2"] }\n`);
  const end = await serve(['-c', file]).closed;
  t.is(end.code, 1);
  t.is(end.stdout, '');
  t.regex(end.stderr, /^error: sites\[0\]\.tls\.versions: .+\n$/);
  const missing = await serve(['-c', join(dir, 'absent.yaml')]).closed;
  t.is(missing.code, 1);
  t.regex(missing.stderr, /^error: .*absent\.yaml: /);
});

test.serial('probe: one line per upstream, exit 0 when all answer and 1 when one does not', async (t) => {
  const up = await upstream('D');
  const good = writeConfig('probe-good.yaml', siteConfig(await freePort(), up));
  const ok = await gatewayCli(['probe', '-c', good], { cwd: dir });
  t.is(ok.code, 0, ok.stderr);
  t.regex(ok.stdout, new RegExp(`^${up} ok 200 \\d+ ms\\n$`));
  const dead = `http://127.0.0.1:${await freePort()}`;
  writeConfig('gateway.yaml', `${siteConfig(await freePort(), up)}          - url: "${dead}"\n`);
  const bad = await gatewayCli(['probe'], { cwd: dir });
  t.is(bad.code, 1);
  t.deepEqual(bad.stdout.split('\n').slice(0, 2).map((line) => line.split(' ').slice(0, 2).join(' ')), [`${up} ok`, `${dead} unreachable:`]);
});

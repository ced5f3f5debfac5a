// A terminal session with the reference gateway, as a user would run it: two upstreams behind one
// weighted route, traffic, `gateway status --upstream`, a target added and a weight changed at runtime
// (the shares move), a reload (the file's targets and shares come back), shutdown. Every `gateway` command
// is the real CLI (reference/gateway/bin/gateway.js) against the running gateway's admin API.
//
//   npx tsx tools/demo/gateway-session.ts
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { freePort, listen } from './demo-ports.ts';

const GATEWAY = join(PROJECT_ROOT, 'reference/gateway/bin/gateway.js');
const TOKEN = 'demo-token';
const REQUESTS = 60;

/** An upstream answering its own name. */
async function upstream(name: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => res.end(name));
  return { url: `http://127.0.0.1:${await listen(server)}`, server };
}

const dir = mkdtempSync(join(tmpdir(), 'gateway-demo-'));
const [a, b, c] = [await upstream('a'), await upstream('b'), await upstream('c')];
const [port, adminPort] = [await freePort(), await freePort()];
const admin = `127.0.0.1:${adminPort}`;
const env = { ...process.env, GATEWAY_ADMIN: admin, GATEWAY_ADMIN_TOKEN: TOKEN };

const config = `global:
  admin: { bind: "${admin}", token: "$GATEWAY_ADMIN_TOKEN" }
sites:
  - port: ${port}
    routes:
      - path: /api
        strategy: weighted-round-robin
        targets:
          - url: "${a.url}"
          - url: "${b.url}"
`;
writeFileSync(join(dir, 'gateway.yaml'), config);
console.log(`$ cat gateway.yaml\n${config}`);

async function gateway(...args: string[]): Promise<void> {
  console.log(`$ gateway ${args.join(' ')}`);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [GATEWAY, ...args], { cwd: dir, env });
    process.stdout.write(stdout + stderr);
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    process.stdout.write(`${e.stdout}${e.stderr}(exit ${e.code})\n`);
  }
}

async function traffic(): Promise<void> {
  const shares: Record<string, number> = {};
  for (let i = 0; i < REQUESTS; i++) {
    const name = await (await fetch(`http://127.0.0.1:${port}/api/item`)).text();
    shares[name] = (shares[name] ?? 0) + 1;
  }
  const line = Object.keys(shares)
    .sort()
    .map((name) => `${name} ${shares[name]}`)
    .join(', ');
  console.log(`# ${REQUESTS} requests to http://127.0.0.1:${port}/api/item answered by: ${line}\n`);
}

console.log('$ gateway run -c gateway.yaml &');
const run = spawn(process.execPath, [GATEWAY, 'run', '-c', 'gateway.yaml'], { cwd: dir, env, stdio: ['ignore', 'inherit', 'inherit'] });
// Listened for from the start: the gateway may be gone before `gateway shutdown` returns.
const exited = new Promise((resolve) => run.once('exit', resolve));
try {
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/__health__`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await traffic();
  await gateway('status', '--upstream');
  await gateway('upstreams', 'add', '--route', '/api', '--target', c.url, '--weight', '4');
  await traffic();
  await gateway('upstreams', 'weight', '--route', '/api', '--target', a.url, '--weight', '3');
  await traffic();
  await gateway('status', '--upstream');
  await gateway('reload');
  await traffic();
  await gateway('shutdown');
  await exited;
} finally {
  run.kill();
  for (const u of [a, b, c]) u.server.close();
  rmSync(dir, { recursive: true, force: true });
}

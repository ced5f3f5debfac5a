// Attacks on the gateway reference, kept: each replays one that once broke or degraded it. The request target
// as the cache keys it and as routing, rate limits and forwarding read it (dot segments, `%2e`, `//host`,
// `Connection: Host`); answers shared between identities; a cache without a byte budget; certificate uploads
// with a broken block after a good one, and many at once; forward auth's copied headers forged by the client;
// a hot reload of a file still being written. Real gateway processes, real upstreams on loopback.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type Server } from 'node:http';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { listenOnFreePort, releasePorts } from '../../conformance/harness/free-ports.ts';
import { launch, PROJECT_ROOT, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { peakRssMb } from './hostile-support.ts';

const { gateway: target } = loadReferenceTargets(['gateway']);
const TOKEN = 'hostile-admin-token';
const TLS = join(PROJECT_ROOT, 'fixtures', 'static', 'tls');
const pem = (name: string): string => readFileSync(join(TLS, name), 'utf8');
const LEAF = { cert: pem('leaf.crt'), key: pem('leaf.key') };
const SELF = { cert: pem('self-signed.crt'), key: pem('self-signed.key') };

interface Upstream {
  url: string;
  /** The requests it saw: target, headers. */
  seen: { url: string; headers: IncomingMessage['headers'] }[];
}

/** An upstream answering `name url` (cacheable), or `body(req)` when given, with `headers` besides. */
async function upstream(t: ExecutionContext, name: string, body?: (req: IncomingMessage) => string | Buffer, headers: Record<string, string> = {}): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const text = body?.(req) ?? `${name} ${req.url}`;
    res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'max-age=60', ...headers });
    res.end(text);
  });
  const port = await listenOnFreePort(server);
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
    releasePorts([port]);
  });
  return { url: `http://127.0.0.1:${port}`, seen };
}

/** A gateway started from `config` (the port is put in each site), stopped with the test. */
async function gateway(t: ExecutionContext, config: (port: number) => object, files: Record<string, string> = {}): Promise<Launched> {
  const g = await launch(target!.command!, target!.env ?? {}, {
    config: { name: 'gateway.yaml', content: ([port]) => JSON.stringify(config(port!)) },
    files,
  });
  t.teardown(() => g.stop());
  return g;
}

interface Raw {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A request with its target sent exactly as given (no URL resolution on this side). */
function raw(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: 'site.test', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer to ${method} ${path} in 30 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

const site = (port: number, extra: object): object => ({ port, ...extra });
const routeTo = (path: string, up: Upstream): object => ({ path, targets: [{ url: up.url }] });

test('cache poisoning by dot segments: the key is the target routing and forwarding used', async (t) => {
  const [api, other] = [await upstream(t, 'API'), await upstream(t, 'OTHER')];
  const g = await gateway(t, (port) => ({ sites: [site(port, { cache: { ttlMs: 60_000 }, routes: [routeTo('/api', api), routeTo('/other', other)] })] }));
  for (const sneaky of ['/api/../other/v', '/api/%2e%2e/other/w', '/api/.%2E/other/x']) {
    const plain = `/other/${sneaky.at(-1)}`;
    const first = await raw(g.port, sneaky);
    const then = await raw(g.port, plain);
    t.is(then.body, `OTHER ${plain}`, `${sneaky} (answered ${first.status} ${first.body}) then ${plain}: ${then.headers['x-cache']}`);
  }
  t.is((await raw(g.port, '/api/../../etc/passwd')).status, 400, 'a target above the root');
  t.false(api.seen.some((s) => s.url.includes('..') || /%2e/i.test(s.url)), `dot segments reached the upstream: ${api.seen.map((s) => s.url)}`);
});

test('cache poisoning across hosts: `//victim/home` from one Host is not served to the victim', async (t) => {
  const up = await upstream(t, 'UP', (req) => `for ${req.headers.host} ${req.url}`);
  const g = await gateway(t, (port) => ({ sites: [site(port, { cache: { ttlMs: 60_000 }, routes: [routeTo('/', up)] })] }));
  await raw(g.port, '//victim.example/home', { host: 'a.attacker' });
  const victim = await raw(g.port, '/home', { host: 'victim.example' });
  t.not(victim.headers['x-cache'], 'HIT', `the victim got a stored answer: ${victim.body}`);
  t.is(victim.body, 'for victim.example /home');
});

test('rate limits and routing read the normalised path; Connection cannot remove Host', async (t) => {
  const up = await upstream(t, 'UP');
  const g = await gateway(t, (port) => ({
    sites: [site(port, { rateLimit: { routes: { '/login': { requests: 3, windowMs: 60_000 } } }, routes: [routeTo('/login', up), routeTo('/', up)] })],
  }));
  for (let i = 0; i < 3; i++) t.is((await raw(g.port, '/login')).status, 200);
  for (const sneaky of ['/x/../login', '/./login', '/%2e/login']) t.is((await raw(g.port, sneaky)).status, 429, sneaky);
  t.false(up.seen.some((s) => s.url !== '/login'), `the upstream saw ${up.seen.map((s) => s.url)}`);
  // Node's server refuses a request without Host (400) before the handler sees it.
  const hello = await raw(g.port, '/hello', { connection: 'Host' });
  t.is(`${hello.status} ${hello.body}`, '200 UP /hello', 'Connection: Host took the Host off the upstream request');
});

test('answers are not shared between identities (API keys, consumers)', async (t) => {
  const up = await upstream(t, 'UP', (req) => `key ${req.headers['x-api-key']} consumer ${req.headers['x-consumer-name']}`);
  const g = await gateway(t, (port) => ({
    sites: [
      site(port, { host: 'keys.test', cache: { ttlMs: 60_000 }, apiKey: { keys: ['alice-key', 'bob-key'] }, routes: [routeTo('/', up)] }),
      site(port, {
        host: 'consumers.test',
        cache: { ttlMs: 60_000 },
        consumers: [
          { name: 'alice', apiKeys: ['alice-consumer'] },
          { name: 'bob', apiKeys: ['bob-consumer'] },
        ],
        routes: [routeTo('/', up)],
      }),
    ],
  }));
  for (const [host, alice, bob] of [
    ['keys.test', 'alice-key', 'bob-key'],
    ['consumers.test', 'alice-consumer', 'bob-consumer'],
  ] as const) {
    const a = await raw(g.port, '/private', { host, 'x-api-key': alice });
    const b = await raw(g.port, '/private', { host, 'x-api-key': bob });
    t.true(a.body.includes(alice) || a.body.includes('alice'), `${host} alice: ${a.body}`);
    t.false(b.body.includes(alice) || b.body.includes('consumer alice'), `${host}: bob got alice's answer (${b.headers['x-cache']}): ${b.body}`);
    t.is((await raw(g.port, '/private', { host, 'x-api-key': alice })).headers['x-cache'], 'HIT', `${host}: alice's own answer is still cached`);
  }
});

test('the in-memory cache holds a bounded number of bytes: 300 distinct 1 MiB answers, 800 Vary variants', async (t) => {
  const MIB = Buffer.alloc(1024 * 1024 - 1024, 'x');
  const up = await upstream(t, 'UP', () => MIB);
  const QUARTER = Buffer.alloc(256 * 1024, 'v');
  const vary = await upstream(t, 'VARY', () => QUARTER, { vary: 'accept-language' });
  const g = await gateway(t, (port) => ({
    sites: [
      site(port, { host: 'big.test', cache: { ttlMs: 60_000, maxEntries: 100_000 }, routes: [routeTo('/', up)] }),
      site(port, { host: 'vary.test', cache: { ttlMs: 60_000, maxEntries: 100_000 }, routes: [routeTo('/', vary)] }),
    ],
  }));
  const before = peakRssMb(g);
  for (let i = 0; i < 300; i++) t.is((await raw(g.port, `/big/${i}`, { host: 'big.test' })).status, 200);
  const afterBig = peakRssMb(g);
  t.true(afterBig - before < 160, `peak RSS ${before.toFixed(0)} MB before, ${afterBig.toFixed(0)} MB after 300 MiB of answers`);
  t.log(`300 × 1 MiB: peak RSS ${before.toFixed(0)} → ${afterBig.toFixed(0)} MB`);
  t.is((await raw(g.port, '/big/299', { host: 'big.test' })).headers['x-cache'], 'HIT', 'the newest answers stay cached');
  t.is((await raw(g.port, '/big/0', { host: 'big.test' })).headers['x-cache'], 'MISS', 'the oldest went first');
  for (let i = 0; i < 800; i++) t.is((await raw(g.port, '/v', { host: 'vary.test', 'accept-language': `x-${i}` })).status, 200);
  const afterVary = peakRssMb(g);
  t.true(afterVary - afterBig < 100, `peak RSS ${afterBig.toFixed(0)} MB before, ${afterVary.toFixed(0)} MB after 800 Vary variants of 256 KiB`);
  t.log(`800 Vary variants × 256 KiB: peak RSS ${afterBig.toFixed(0)} → ${afterVary.toFixed(0)} MB`);
});

test('a certificate chain with a broken block after a good one is refused by reload, validate and start', async (t) => {
  const up = await upstream(t, 'UP');
  const files = { 'cert.pem': LEAF.cert, 'key.pem': LEAF.key };
  const config = (port: number, admin: number) => ({
    global: { admin: { bind: `127.0.0.1:${admin}`, token: TOKEN } },
    sites: [site(port, { tls: { cert: 'cert.pem', key: 'key.pem' }, routes: [routeTo('/', up)] })],
  });
  const g = await launch(target!.command!, target!.env ?? {}, { ports: 2, config: { name: 'gateway.yaml', content: ([p, a]) => JSON.stringify(config(p!, a!)) }, files });
  t.teardown(() => g.stop());
  await waitForAdmin(g.ports[1]!);
  const broken = `${LEAF.cert}-----BEGIN CERTIFICATE-----\nMIIBroken\n-----END CERTIFICATE-----\n`;
  const answer = await raw(g.ports[1]!, '/certs/reload', { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, 'POST', JSON.stringify({ cert: broken, key: LEAF.key }));
  t.is(answer.status, 400, answer.body);
  t.is(readFileSync(join(g.dir, 'cert.pem'), 'utf8'), LEAF.cert, 'nothing written');
  // The same chain on disk: validate says invalid, a start refuses it.
  writeFileSync(join(g.dir, 'broken.pem'), broken);
  const cli = await launch(`${target!.command!.replace(/ run -c \{config\}$/, '')} validate -c gateway.yaml`, target!.env ?? {}, {
    wait: 'exit',
    config: { name: 'gateway.yaml', content: JSON.stringify({ sites: [site(1, { tls: { cert: 'broken.pem', key: 'key.pem' }, routes: [routeTo('/', up)] })] }) },
    files: { 'broken.pem': broken, 'key.pem': LEAF.key },
  });
  t.teardown(() => cli.stop());
  const { code } = await cli.exited;
  t.is(code, 1, `validate: ${cli.stdout()}${cli.stderr()}`);
  // A start on that chain, or on a certificate and a key of two pairs, ends with the cause named.
  for (const [what, cert, key] of [
    ['the broken chain', broken, LEAF.key],
    ['a mismatched pair', LEAF.cert, SELF.key],
  ] as const) {
    const start = await launch(target!.command!, target!.env ?? {}, {
      wait: 'exit',
      config: { name: 'gateway.yaml', content: ([p]) => JSON.stringify({ sites: [site(p!, { tls: { cert: 'c.pem', key: 'k.pem' }, routes: [routeTo('/', up)] })] }) },
      files: { 'c.pem': cert, 'k.pem': key },
    });
    t.teardown(() => start.stop());
    const ended = await start.exited;
    t.not(ended.code, 0, `a start on ${what}: ${start.stderr()}`);
    t.regex(start.stderr(), /tls/, `a start on ${what}`);
  }
});

test('concurrent certificate uploads always leave a matching pair on disk', async (t) => {
  const up = await upstream(t, 'UP');
  const config = (port: number, admin: number) => ({
    global: { admin: { bind: `127.0.0.1:${admin}`, token: TOKEN } },
    sites: [site(port, { tls: { cert: 'cert.pem', key: 'key.pem' }, routes: [routeTo('/', up)] })],
  });
  const g = await launch(target!.command!, target!.env ?? {}, {
    ports: 2,
    config: { name: 'gateway.yaml', content: ([p, a]) => JSON.stringify(config(p!, a!)) },
    files: { 'cert.pem': LEAF.cert, 'key.pem': LEAF.key },
  });
  t.teardown(() => g.stop());
  await waitForAdmin(g.ports[1]!);
  const mismatched: number[] = [];
  for (let round = 0; round < 20; round++) {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const pair = i % 2 === 0 ? LEAF : SELF;
        return raw(g.ports[1]!, '/certs/reload', { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, 'POST', JSON.stringify(pair));
      }),
    );
    const cert = new X509Certificate(readFileSync(join(g.dir, 'cert.pem')));
    if (!cert.checkPrivateKey(createPrivateKey(readFileSync(join(g.dir, 'key.pem'))))) mismatched.push(round);
  }
  t.deepEqual(mismatched, [], 'rounds that left a certificate and a key of different pairs');
});

test('forward auth: a header named in copyHeaders that the auth service did not answer is not the client’s', async (t) => {
  const auth = await upstream(t, 'AUTH', () => 'ok');
  const up = await upstream(t, 'UP', (req) => `user ${req.headers['x-user']}`);
  const g = await gateway(t, (port) => ({
    sites: [site(port, { forwardAuth: { url: `${auth.url}/check`, copyHeaders: ['X-User'] }, routes: [routeTo('/', up)] })],
  }));
  const answer = await raw(g.port, '/me', { 'x-user': 'root' });
  t.is(answer.status, 200);
  t.is(answer.body, 'user undefined', 'the client’s own X-User reached the upstream');
});

test('hot reload never applies a file still being written (a writer pausing 1 s mid-file)', async (t) => {
  const up = await upstream(t, 'UP');
  const sites = (port: number, n: number) =>
    Array.from({ length: n }, (_, i) => site(port, { host: `s${i}.test`, basicAuth: { users: [{ username: 'u', password: 'p' }] }, routes: [routeTo('/', up)] }));
  const g = await gateway(t, (port) => ({ hotReload: true, sites: sites(port, 6) }));
  const whole = JSON.stringify({ hotReload: true, sites: sites(g.port, 6).map((s, i) => (i < 2 ? s : { ...s, basicAuth: undefined })) }, null, 1);
  // A prefix that is valid YAML on its own: its first lines (the first site, complete, without auth).
  const cut = `hotReload: true\nsites:\n  - port: ${g.port}\n    host: s5.test\n    routes: [{ path: /, targets: [{ url: "${up.url}" }] }]\n`;
  await new Promise((r) => setTimeout(r, 1_000)); // the watcher ready
  writeFileSync(g.configPath!, cut);
  await new Promise((r) => setTimeout(r, 1_000));
  const during = await raw(g.port, '/', { host: 's5.test' });
  writeFileSync(g.configPath!, whole);
  t.is(during.status, 401, `s5.test answered ${during.status} without credentials while the file was half written`);
});

async function waitForAdmin(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await raw(port, '/status', { authorization: `Bearer ${TOKEN}` });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`no admin server on ${port}`);
}

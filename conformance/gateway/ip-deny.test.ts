// Runtime IP denies (document 001, POST/DELETE /ip-deny, behaviour rule 5) and `ipFilter.deny`. One shared
// gateway: a deny names only client addresses of the case's own (127.0.x.y), so it touches no other case.
// Cases that reload or restart start their own gateway.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { check, type CaseContext } from '../harness/index.ts';
import { errorBody, is2xx, jsonObject, needOk, shown, successBody } from './admin-client.ts';
import { clientAddress, type Gateway, restartGateway, sharedGateway, startGateway } from './gateway.ts';
import { GATEWAY } from './target.ts';
import { fared, send } from './traffic.ts';
import { sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

async function denyGateway(c: CaseContext): Promise<{ g: Gateway; up: Upstream }> {
  const [up] = await sharedUpstreams('deny', 'up');
  const g = await sharedGateway(c, 'deny', () => ({ sites: [{ routes: [{ path: '/', targets: [up!.url] }] }] }));
  return { g, up: up! };
}

/** A request from `addr`; whether it reached the upstream. */
const from = (g: Gateway, up: Upstream, addr: string) => send(g.from(addr), '/', [up]);

/** `addr`'s requests reach the upstream before the case denies it (else the case cannot judge a deny). */
async function reachesFirst(c: CaseContext, g: Gateway, up: Upstream, addr: string): Promise<void> {
  const s = await c.need(`a request from ${addr}`, from(g, up, addr));
  if (!s.reached) c.inconclusive(`a request from ${addr} did not reach the upstream before any deny: ${fared(s)}`);
}

check('gateway/ip-deny/add-cidr-required/refused-without-cidr', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const res = await g.admin.post('/ip-deny', {});
  t.false(is2xx(res), `POST /ip-deny {}: ${shown(res)}`);
  const addr = clientAddress();
  const ok = await g.admin.post('/ip-deny', { cidr: `${addr}/32` });
  t.true(is2xx(ok), `POST /ip-deny with a cidr: ${shown(ok)}`);
});

check('gateway/ip-deny/add-response/status-action-cidr', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const cidr = `${clientAddress()}/32`;
  const body = successBody(t, await g.admin.post('/ip-deny', { cidr }), `POST /ip-deny ${cidr}`);
  t.is(body?.action, 'added', JSON.stringify(body));
  t.true(body !== undefined && 'status' in body, JSON.stringify(body));
  t.is(typeof body?.cidr, 'string', JSON.stringify(body));
});

check('gateway/ip-deny/accepts-single-ip/denies-that-address-only', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  const neighbour = clientAddress();
  await reachesFirst(c, g, up, addr);
  successBody(t, await g.admin.post('/ip-deny', { cidr: addr }), `POST /ip-deny ${addr}`);
  const denied = await from(g, up, addr);
  t.false(denied.reached, `from ${addr} after denying it: ${fared(denied)}`);
  const other = await from(g, up, neighbour);
  t.true(other.reached, `from ${neighbour}, not denied: ${fared(other)}`);
});

check('gateway/ip-deny/immediate-effect/next-request-denied', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  await reachesFirst(c, g, up, addr);
  await needOk(c, `POST /ip-deny ${addr}/32`, g.admin.post('/ip-deny', { cidr: `${addr}/32` }));
  const s = await from(g, up, addr);
  t.false(s.reached, `the request right after the deny: ${fared(s)}`);
});

check('gateway/ip-deny/delete-cidr-required/refused-without-cidr', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const res = await g.admin.delete('/ip-deny', {});
  t.false(is2xx(res), `DELETE /ip-deny {}: ${shown(res)}`);
  const s = await from(g, up, addr);
  t.false(s.reached, `the deny is still in force: ${fared(s)}`);
});

check('gateway/ip-deny/delete-response/status-action-cidr-and-lifted', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const body = successBody(t, await g.admin.delete('/ip-deny', { cidr: addr }), `DELETE /ip-deny ${addr}`);
  t.is(body?.action, 'removed', JSON.stringify(body));
  t.true(body !== undefined && 'status' in body, JSON.stringify(body));
  t.is(typeof body?.cidr, 'string', JSON.stringify(body));
  const s = await from(g, up, addr);
  t.true(s.reached, `after the delete: ${fared(s)}`);
});

check('gateway/ip-deny/delete-absent-still-removed/never-denied', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const body = successBody(t, await g.admin.delete('/ip-deny', { cidr: '198.51.100.0/24' }), 'DELETE /ip-deny of a block never denied');
  t.is(body?.action, 'removed', JSON.stringify(body));
});

check('gateway/ip-deny/no-list-endpoint/denies-not-shown', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const marker = '203.0.113.77';
  await needOk(c, `POST /ip-deny ${marker}`, g.admin.post('/ip-deny', { cidr: marker }));
  for (const [method, path] of [
    ['GET', '/ip-deny'],
    ['GET', '/ip-deny/list'],
    ['GET', '/ip-denies'],
    ['GET', '/denies'],
    ['GET', '/status'],
    ['GET', '/upstreams'],
    ['GET', '/rate-limits'],
  ]) {
    const res = await g.admin.call({ method: method!, path: path! });
    t.false(is2xx(res) && res.text.includes(marker), `${method} ${path} lists the deny: ${shown(res)}`);
  }
});

/** Network-aligned blocks and single addresses of either family, none covering loopback clients. */
const validBlock: fc.Arbitrary<string> = fc
  .oneof(
    fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }), fc.boolean()),
    fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 }), fc.boolean()),
  )
  .map(([address, prefix, single]) => {
    const parsed = ipaddr.parse(address);
    if (single) return parsed.toString();
    const Family = parsed.kind() === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6;
    return `${Family.networkAddressFromCIDR(`${parsed.toString()}/${prefix}`).toString()}/${prefix}`;
  })
  .filter((block) => {
    const [net, prefix] = block.includes('/') ? ipaddr.parseCIDR(block) : [ipaddr.parse(block), block.includes(':') ? 128 : 32];
    return !['127.0.0.1', '127.0.0.255', '127.0.255.255', '::1', '::ffff:127.0.0.1', '::ffff:127.0.255.255'].some((a) => {
      const addr = ipaddr.parse(a);
      return addr.kind() === net.kind() && addr.match(net, prefix);
    });
  });

check('gateway/ip-deny/add-cidr-required/any-valid-block-or-address-accepted', { ...GATEWAY, timeoutMs: 90_000 }, async (t, c) => {
  // On the shared gateway: no block generated covers a loopback client, and each is lifted at once.
  const { g } = await denyGateway(c);
  const addedAndLifted = async (cidr: string): Promise<void> => {
    const add = await g.admin.post('/ip-deny', { cidr });
    assert.ok(is2xx(add), `POST /ip-deny ${cidr}: ${shown(add)}`);
    const del = await g.admin.delete('/ip-deny', { cidr });
    assert.ok(is2xx(del), `DELETE /ip-deny ${cidr}: ${shown(del)}`);
  };
  // Each family as a single address, a narrow block and a wide one, in every run (none covers a loopback
  // client: the gateway is shared); then any.
  const problems: string[] = [];
  for (const cidr of ['198.51.100.7', '203.0.113.0/24', '0.0.0.0/8', '2001:db8::7', '2001:db8:1::/48', '2000::/3']) {
    await addedAndLifted(cidr).catch((err: unknown) => {
      if (!(err instanceof assert.AssertionError)) throw err;
      problems.push(err.message);
    });
  }
  t.deepEqual(problems, [], 'each family as an address and as blocks');
  await c.property(validBlock, addedAndLifted, { numRuns: 40 });
});

/** Values that are no IP address and no CIDR block, some built around `addr` (a wrong parser would deny
 * it); no numeric form some parsers read as an address (octal, short forms such as `10.1`). */
const invalidAround = (addr: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(
      `${addr}/33`,
      `${addr}/-1`,
      `${addr}/`,
      `${addr}/24/24`,
      `${addr}.1`,
      `${addr}x`,
      `${addr}/abc`,
      `${addr} / 32`,
      '256.1.1.1',
      '1.2.3.4.5',
      '::1/129',
      '2001:db8::g',
      ':::1',
      '/24',
      'localhost',
      'example.com',
      '',
      ' ',
    ),
    fc.constantFrom(42, true, null, ['10.0.0.1'], { block: '10.0.0.0/8' }),
    fc.stringMatching(/^[g-z]{1,12}(\/[0-9]{1,2})?$/),
  );

check('gateway/errors/ip-deny-invalid-400/any-invalid-value-refused-unchanged', { ...GATEWAY, timeoutMs: 90_000 }, async (t, c) => {
  const { g, up } = await denyGateway(c);
  await c.property(
    fc.constant(null).chain(() => {
      const addr = clientAddress();
      return invalidAround(addr).map((value) => ({ addr, value }));
    }),
    async ({ addr, value }) => {
      const res = await g.admin.post('/ip-deny', { cidr: value });
      const body = jsonObject(res);
      assert.ok(res.status === 400 && body?.status === 'error' && typeof body.message === 'string', `POST /ip-deny ${JSON.stringify(value)}: want 400 with an error body, got ${shown(res)}`);
      const s = await from(g, up, addr);
      assert.ok(s.reached, `POST /ip-deny ${JSON.stringify(value)} was refused, yet ${addr} is denied: ${fared(s)}`);
    },
    { numRuns: 30 },
  );
  t.pass();
});

check('gateway/errors/ip-deny-invalid-400/error-body', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  errorBody(t, await g.admin.post('/ip-deny', { cidr: '10.0.0.0/33' }), 400, 'POST /ip-deny 10.0.0.0/33');
});

check('gateway/ip-deny/lost-on-restart/allowed-after-restart', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [up!.url] }] }] });
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const denied = await c.need(`a request from ${addr}`, from(g, up!, addr));
  if (denied.reached) c.inconclusive(`the deny did not take effect: ${fared(denied)}`);
  const again = await restartGateway(c, g);
  const s = await from(again, up!, addr);
  t.true(s.reached, `after a restart: ${fared(s)}`);
});

check('gateway/ip-deny/permanent-via-config/after-reload-and-restart', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const routes = [{ path: '/', targets: [up!.url] }];
  const g = await startGateway(c, { sites: [{ routes }] });
  const addr = clientAddress();
  await reachesFirst(c, g, up!, addr);
  await g.rewrite({ sites: [{ routes, ipFilter: { deny: [`${addr}/32`] } }] });
  successBody(t, await g.admin.post('/reload'), 'POST /reload with ipFilter.deny');
  const reloaded = await from(g, up!, addr);
  t.false(reloaded.reached, `after the reload: ${fared(reloaded)}`);
  const again = await restartGateway(c, g);
  const restarted = await from(again, up!, addr);
  t.false(restarted.reached, `after a restart: ${fared(restarted)}`);
});

check('gateway/config/ip-filter-deny-list/listed-blocks-denied', GATEWAY, async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const single = clientAddress();
  const allowed = clientAddress();
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/', targets: [up!.url] }], ipFilter: { deny: [`${single}/32`, '198.51.100.0/24', '2001:db8::/32'] } }] });
  const denied = await from(g, up!, single);
  t.false(denied.reached, `from ${single}, in ipFilter.deny: ${fared(denied)}`);
  const other = await from(g, up!, allowed);
  t.true(other.reached, `from ${allowed}, not listed: ${fared(other)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/data-plane/denied-client-403/forbidden', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const s = await from(g, up, addr);
  t.is(s.res?.status, 403, fared(s));
  t.false(s.reached);
});

check('gateway/ip-deny/delete-body-and-validation/400s', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const missing = await g.admin.delete('/ip-deny', {});
  t.is(missing.status, 400, shown(missing));
  t.regex(String(jsonObject(missing)?.message), /cidr/);
  t.is((await g.admin.delete('/ip-deny', { cidr: 'nope' })).status, 400);
});

check('gateway/ip-deny/cidr-echo-and-duplicates/echo-and-added-again', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const cidr = `${clientAddress()}/32`;
  const first = await needOk(c, 'POST /ip-deny', g.admin.post('/ip-deny', { cidr }));
  const second = await needOk(c, 'POST /ip-deny again', g.admin.post('/ip-deny', { cidr }));
  t.is(first.cidr, cidr);
  t.is(second.action, 'added');
});

check('gateway/ip-deny/delete-scope/same-network-only', GATEWAY, async (t, c) => {
  const { g, up } = await denyGateway(c);
  const addr = clientAddress();
  await needOk(c, 'POST /ip-deny /32', g.admin.post('/ip-deny', { cidr: `${addr}/32` }));
  await needOk(c, 'DELETE /ip-deny bare address', g.admin.delete('/ip-deny', { cidr: addr }));
  const s = await from(g, up, addr);
  t.true(s.reached, `a bare address lifts the /32 of the same address: ${fared(s)}`);
});

check('gateway/ip-deny/address-families/ipv6-and-mapped', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  for (const cidr of ['2001:db8::/32', '2001:db8::1', '::ffff:192.0.2.1']) {
    const res = await g.admin.post('/ip-deny', { cidr });
    t.true(is2xx(res), `${cidr}: ${shown(res)}`);
    await g.admin.delete('/ip-deny', { cidr });
  }
});

check('gateway/ip-deny/admin-not-affected/admin-from-denied-address', GATEWAY, async (t, c) => {
  const { g } = await denyGateway(c);
  const addr = clientAddress();
  await needOk(c, `POST /ip-deny ${addr}`, g.admin.post('/ip-deny', { cidr: addr }));
  const viaAddr = c.http(`http://${g.admin.address}`, { localAddress: addr });
  const res = await viaAddr.request({ path: '/status', headers: g.admin.token ? { authorization: `Bearer ${g.admin.token}` } : {} });
  t.true(is2xx(res), `GET /status from the denied ${addr}: ${shown(res)}`);
});

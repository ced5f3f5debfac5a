// Outlier detection and the upstream states it drives (document 001, "Upstream states", the ejected ->
// half-open transition). An upstream answering 500 is ejected after consecutive 5xx; when its backoff runs out
// it is half-open, and the request it then gets decides. One shared gateway: site 0 with a long ejection (to
// observe it), site 1 with a short one (to see it end); each case has its own route and upstreams.
import { check, type CaseContext } from '../harness/index.ts';
import { type Json, listing, sameUrl } from './admin-client.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { pollUntil } from './poll.ts';
import { needs } from './target.ts';
import { fared, send } from './traffic.ts';
import { PROBE_PATH, sharedUpstreams, startUpstreams, type Upstream } from './upstream.ts';

const OUTLIER = needs('outlier-detection');
const LONG_MS = 6000;
const SHORT_MS = 800;

async function ejectGateway(c: CaseContext): Promise<{ g: Gateway; up: Record<string, Upstream> }> {
  const ups = await sharedUpstreams('eject', 'e1', 'e2', 'h1', 'h2', 'r1', 'r2', 'f1', 'f2', 'k1', 'k2');
  const up = Object.fromEntries(ups.map((u) => [u.name, u]));
  const route = (path: string, a: string, b: string) => ({ path, strategy: 'round-robin', targets: [up[a]!.url, up[b]!.url] });
  const g = await sharedGateway(c, 'eject', () => ({
    sites: [
      { routes: [route('/ej', 'e1', 'e2'), route('/keep', 'k1', 'k2')], outlierDetection: { consecutive5xx: 2, baseEjectionMs: LONG_MS, maxEjectionMs: LONG_MS * 4 } },
      {
        routes: [route('/ho', 'h1', 'h2'), route('/rc', 'r1', 'r2'), route('/fail', 'f1', 'f2')],
        outlierDetection: { consecutive5xx: 2, baseEjectionMs: SHORT_MS, maxEjectionMs: SHORT_MS * 8 },
      },
    ],
  }));
  return { g, up };
}

const entryOf = async (c: CaseContext, g: Gateway, u: Upstream): Promise<Json> => {
  const l = await listing(c, g.admin);
  const found = l.upstreams.find((e) => sameUrl(e.url, u.url));
  if (!found) return c.inconclusive(`GET /upstreams has no entry for ${u.url}`);
  return found;
};

/** Makes `flaky` answer 500 and sends requests to `route` until it has been ejected (else the case cannot
 * judge what follows). */
async function eject(c: CaseContext, g: Gateway, site: number, route: string, flaky: Upstream, steady: Upstream): Promise<void> {
  flaky.answer = () => ({ status: 500 });
  for (let i = 0; i < 8 && flaky.received.length < 2; i++) await c.need(`request ${i + 1} to ${route}`, send(g.site(site), route, [flaky, steady]));
  // On the short-ejection site a slow first look may find it half-open already: that too follows an ejection.
  const seen = site === 0 ? ['ejected'] : ['ejected', 'half-open'];
  const polled = await pollUntil(() => entryOf(c, g, flaky), (e) => seen.includes(e.state as string), 3000, 50);
  if (!polled.met) c.inconclusive(`after ${flaky.received.length} answers of 500 from ${flaky.name} (consecutive5xx 2) it was not ejected: ${JSON.stringify(polled.value)}`);
}

/** Waits until `flaky` (ejected on site 1) is half-open, then sends requests until one reaches it (else the
 * case cannot judge what that request decides). */
async function probeHalfOpen(c: CaseContext, g: Gateway, route: string, flaky: Upstream, steady: Upstream): Promise<void> {
  const half = await pollUntil(() => entryOf(c, g, flaky), (e) => e.state === 'half-open', SHORT_MS + 4000, 50);
  if (!half.met) c.inconclusive(`the upstream did not become half-open: ${JSON.stringify(half.value)}`);
  const before = flaky.received.length;
  for (let i = 0; i < 6 && flaky.received.length === before; i++) await send(g.site(1), route, [flaky, steady]);
  if (flaky.received.length === before) c.inconclusive('no request reached the half-open upstream');
}

check('gateway/upstream-state/ejected/flag-and-not-picked', OUTLIER, async (t, c) => {
  const { g, up } = await ejectGateway(c);
  const [flaky, steady] = [up.e1!, up.e2!];
  await eject(c, g, 0, '/ej', flaky, steady);
  const e = await entryOf(c, g, flaky);
  t.is(e.ejected, true, `the ejected upstream's entry: ${JSON.stringify(e)}`);
  const before = flaky.received.length;
  for (let i = 0; i < 6; i++) {
    const s = await send(g.site(0), '/ej', [flaky, steady]);
    t.deepEqual(s.by, [steady.name], `request ${i + 1} while ${flaky.name} is ejected: ${fared(s)}`);
  }
  t.is(flaky.received.length, before, 'the ejected upstream got requests');
});

check('gateway/upstream-state/ejected-to-half-open/backoff-expires-back-in-rotation', OUTLIER, async (t, c) => {
  const { g, up } = await ejectGateway(c);
  const [flaky, steady] = [up.h1!, up.h2!];
  await eject(c, g, 1, '/ho', flaky, steady);
  flaky.answer = () => ({});
  const half = await pollUntil(() => entryOf(c, g, flaky), (e) => e.state === 'half-open', SHORT_MS + 4000, 50);
  t.true(half.met, `${SHORT_MS} ms after the ejection: ${JSON.stringify(half.value)}`);
  const before = flaky.received.length;
  for (let i = 0; i < 6 && flaky.received.length === before; i++) await send(g.site(1), '/ho', [flaky, steady]);
  t.true(flaky.received.length > before, 'six requests after the backoff ran out: none went to the half-open upstream');
});

check('gateway/upstream-state/half-open/next-request-decides-recovery', OUTLIER, async (t, c) => {
  const { g, up } = await ejectGateway(c);
  const [flaky, steady] = [up.r1!, up.r2!];
  await eject(c, g, 1, '/rc', flaky, steady);
  flaky.answer = () => ({});
  await probeHalfOpen(c, g, '/rc', flaky, steady);
  const healthy = await pollUntil(() => entryOf(c, g, flaky), (e) => e.state === 'healthy', 2000, 50);
  t.true(healthy.met, `after its request succeeded: ${JSON.stringify(healthy.value)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/upstream-state/other-transitions/half-open-failure-ejects-again', OUTLIER, async (t, c) => {
  const { g, up } = await ejectGateway(c);
  const [flaky, steady] = [up.f1!, up.f2!];
  await eject(c, g, 1, '/fail', flaky, steady);
  await probeHalfOpen(c, g, '/fail', flaky, steady);
  const again = await pollUntil(() => entryOf(c, g, flaky), (e) => e.state === 'ejected', 2000, 50);
  t.true(again.met, `after its request failed: ${JSON.stringify(again.value)}`);
});

check('gateway/upstream-state/other-transitions/killed-unhealthy-restarted-healthy', needs('health-checks'), async (t, c) => {
  const [up] = await startUpstreams(c, 'up');
  const g = await startGateway(c, {
    sites: [{ routes: [{ path: '/', targets: [up!.url] }], healthCheck: { path: PROBE_PATH, intervalMs: 100, timeoutMs: 1000, healthyThreshold: 2, unhealthyThreshold: 2 } }],
  });
  await up!.kill();
  const down = await pollUntil(() => entryOf(c, g, up!), (e) => e.state === 'unhealthy' && e.healthy === false, 5000);
  t.true(down.met, `killed: ${JSON.stringify(down.value)}`);
  await up!.restart();
  const back = await pollUntil(() => entryOf(c, g, up!), (e) => e.state === 'healthy' && e.healthy === true, 5000);
  t.true(back.met, `restarted: ${JSON.stringify(back.value)}`);
});

check('gateway/upstream-state/precedence/ejected-flag-matches-state', OUTLIER, async (t, c) => {
  const { g } = await ejectGateway(c);
  for (const e of (await listing(c, g.admin)).upstreams) t.is(e.ejected, e.state === 'ejected', JSON.stringify(e));
});

check('gateway/upstream-state/healthy-flag-meaning/ejected-stays-healthy', OUTLIER, async (t, c) => {
  const { g, up } = await ejectGateway(c);
  await eject(c, g, 0, '/keep', up.k1!, up.k2!);
  const e = await entryOf(c, g, up.k1!);
  t.like(e, { state: 'ejected', ejected: true, healthy: true });
});

import { check } from '../harness/index.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };

/** What a request below the limit gets is the unhandled step's answer (its status is
 * static/unhandled/default-404's): the cases tell 429 from anything else. */
const SERVED = 'not 429';
const limited = (status: number): number | string => (status === 429 ? 429 : SERVED);

async function statuses(get: () => Promise<{ status: number }>, n: number): Promise<(number | string)[]> {
  const out: (number | string)[] = [];
  for (let i = 0; i < n; i++) out.push(limited((await get()).status));
  return out;
}

check('static/rate-limit/default-limit-5/sixth-request-429', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: {} } });
  t.deepEqual(await statuses(() => site.http.get('/x'), 7), [SERVED, SERVED, SERVED, SERVED, SERVED, 429, 429]);
});

check('static/rate-limit/default-window-60000/still-blocked-after-seconds', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1 } } });
  await statuses(() => site.http.get('/x'), 2);
  await new Promise((r) => setTimeout(r, 2500));
  t.is((await site.http.get('/x')).status, 429);
});

check('static/rate-limit/custom-limit/limit-respected', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 3 } } });
  t.deepEqual(await statuses(() => site.http.get('/x'), 5), [SERVED, SERVED, SERVED, 429, 429]);
});

check('static/rate-limit/custom-window/served-again-after-window', launch, async (t, c) => {
  const windowMs = 1500;
  const site = await startSite(c, { config: { rateLimit: { limit: 2, windowMs } } });
  // Five requests at once: windows need not start at this client's first request, but five requests within
  // one window's time meet at most two windows, so at least one of them is over a limit of 2.
  const started = Date.now();
  const burst = await Promise.all(Array.from({ length: 5 }, () => site.http.get('/x')));
  const tookMs = Date.now() - started;
  const over = burst.filter((r) => r.status === 429).length;
  if (over === 0 && tookMs >= windowMs) {
    c.inconclusive(`five requests at once took ${tookMs} ms, longer than the ${windowMs} ms window: none was limited`);
  }
  t.true(over > 0, `five requests at once within ${tookMs} ms (limit 2): none answered 429`);
  await new Promise((r) => setTimeout(r, windowMs + 300));
  t.is(limited((await site.http.get('/x')).status), SERVED);
});

check('static/rate-limit/status-429/over-limit', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1 }, folders: 'p' }, files: { 'p/a.txt': 'A' } });
  t.is((await site.http.get('/a.txt')).status, 200);
  t.is((await site.http.get('/a.txt')).status, 429);
});

check('static/rate-limit/custom-message/body-is-message', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1, message: 'Slow down, please.' } } });
  await site.http.get('/x');
  const res = await site.http.get('/x');
  t.is(res.status, 429);
  t.is(res.text, 'Slow down, please.');
});

check('static/rate-limit/per-ip/other-client-not-blocked', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1 } } });
  await site.http.get('/x');
  const blocked = await site.http.get('/x');
  // Any 127/8 address reaches loopback: connecting from 127.0.0.2 makes another client.
  const other = await c.http(`http://127.0.0.1:${site.port}`, { localAddress: '127.0.0.2' }).get('/x');
  t.is(blocked.status, 429);
  t.is(limited(other.status), SERVED);
});

check('static/rate-limit/per-site/sites-count-separately', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => [
      { port: p[0], host: 'one.test', rateLimit: { limit: 1 } },
      { port: p[0], host: 'two.test', rateLimit: { limit: 1 } },
    ],
  });
  t.is(limited((await site.http.get('/x', { host: 'one.test' })).status), SERVED);
  t.is((await site.http.get('/x', { host: 'one.test' })).status, 429);
  t.is(limited((await site.http.get('/x', { host: 'two.test' })).status), SERVED);
});

check('static/rate-limit/default-message/text-body', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1 } } });
  await site.http.get('/x');
  const res = await site.http.get('/x');
  t.is(res.text, 'Too many requests, please try again later.');
});

check('static/rate-limit/headers-and-window/ratelimit-headers', launch, async (t, c) => {
  const site = await startSite(c, { config: { rateLimit: { limit: 1 } } });
  await site.http.get('/x');
  const res = await site.http.get('/x');
  t.truthy(res.headers['retry-after']);
  t.truthy(res.headers.ratelimit ?? res.headers['ratelimit-limit']);
  // A window of 60 s counted from this client's first request.
  const retryAfter = Number(res.headers['retry-after']);
  t.true(retryAfter > 50 && retryAfter <= 60, `Retry-After ${res.headers['retry-after']}`);
});

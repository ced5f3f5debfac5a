import type { ExecutionContext } from 'ava';
import { type CaseContext, check, type HttpResponse } from '../harness/index.ts';
import { fallThroughStatus, type Site, startSite } from './site.ts';

const launch = { needs: ['launch'] };
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface Health {
  status: unknown;
  uptime: unknown;
  timestamp: unknown;
}

/** The answer is the health object (any 2xx: static/health/status-and-type); fails `t` and gives undefined if
 * it is not a JSON object with status "ok". */
function healthObject(t: ExecutionContext, res: HttpResponse, where: string): Health | undefined {
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    body = undefined;
  }
  const ok = res.status >= 200 && res.status < 300 && typeof body === 'object' && body !== null && (body as Health).status === 'ok';
  if (!t.true(ok, `${where}: want the health object (2xx, JSON, status "ok"); got ${res.status} ${res.text.slice(0, 300)}`)) return undefined;
  return body as Health;
}

/** The health object for the reads of its fields: an answer that is not one leaves them unjudged. */
async function readHealth(c: CaseContext, site: Site): Promise<Health> {
  const res = await c.need('GET /__health__', site.http.get('/__health__'));
  return c.need('the health answer as a JSON object', () => {
    const body: unknown = JSON.parse(res.text);
    if (typeof body !== 'object' || body === null) throw new Error(`not an object: ${res.status} ${res.text.slice(0, 200)}`);
    return body as Health;
  });
}

check('static/health/default-path/serves-health-object', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  healthObject(t, await site.http.get('/__health__'), '/__health__');
});

check('static/health/custom-path/serves-at-configured-path', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: { path: '/status/alive' } } });
  healthObject(t, await site.http.get('/status/alive'), '/status/alive');
});

check('static/health/custom-path/default-path-not-served', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: { path: '/status/alive' } } });
  // Falls through as a path nothing handles does (which status that is: static/unhandled/default-404).
  t.is((await site.http.get('/__health__')).status, await fallThroughStatus(c, site));
});

for (const [label, config] of [
  ['absent', {}],
  ['false', { healthCheck: false }],
] as const) {
  check(`static/health/absent-or-false/${label}-falls-through`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: 'public', ...config }, files: { 'public/index.html': 'home' } });
    t.is((await site.http.get('/__health__')).status, await fallThroughStatus(c, site));
  });
}

check('static/health/body-status/status-is-ok-string', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  t.is((await readHealth(c, site)).status, 'ok');
});

check('static/health/body-uptime/number-not-decreasing', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const first = (await readHealth(c, site)).uptime;
  await new Promise((r) => setTimeout(r, 50));
  const second = (await readHealth(c, site)).uptime;
  t.is(typeof first, 'number');
  t.is(typeof second, 'number');
  t.true((second as number) >= (first as number), `uptime went from ${first} to ${second}`);
  t.true((first as number) >= 0);
});

check('static/health/body-timestamp/iso-8601-near-now', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const { timestamp } = await readHealth(c, site);
  t.is(typeof timestamp, 'string');
  t.regex(timestamp as string, ISO_8601);
  t.true(Math.abs(Date.parse(timestamp as string) - Date.now()) < 60_000, `timestamp ${timestamp} is not near now`);
});

check('static/health/exempt-rate-limit/answers-past-the-limit', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true, rateLimit: { limit: 2 } } });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await site.http.get('/__health__')).status);
  t.true(
    statuses.every((s) => s >= 200 && s < 300),
    `health answers past a limit of 2 (any 2xx: static/health/status-and-type): ${statuses.join(', ')}`,
  );
});

check('static/health/exempt-basic-auth/answers-without-credentials', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true, basicAuth: { users: { ann: 'secret' } } } });
  healthObject(t, await site.http.get('/__health__'), 'without credentials');
});

check('static/health/status-and-type/json-200-and-head', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const get = await site.http.get('/__health__');
  const head = await site.http.request({ method: 'HEAD', path: '/__health__' });
  t.is(get.status, 200);
  t.regex(String(get.headers['content-type']), /^application\/json/);
  t.is(head.status, 200);
  t.is(head.body.length, 0);
});

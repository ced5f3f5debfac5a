import { check } from '../harness/index.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

interface Health {
  status: unknown;
  uptime: unknown;
  timestamp: unknown;
}

check('static/health/default-path/serves-health-object', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const res = await site.http.get('/__health__');
  t.is(res.status, 200);
  t.is(res.json<Health>().status, 'ok');
});

check('static/health/custom-path/serves-at-configured-path', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: { path: '/status/alive' } } });
  const res = await site.http.get('/status/alive');
  t.is(res.status, 200);
  t.is(res.json<Health>().status, 'ok');
});

check('static/health/custom-path/default-path-not-served', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: { path: '/status/alive' } } });
  t.is((await site.http.get('/__health__')).status, 404);
});

for (const [label, config] of [
  ['absent', {}],
  ['false', { healthCheck: false }],
] as const) {
  check(`static/health/absent-or-false/${label}-falls-through`, launch, async (t, c) => {
    const site = await startSite(c, { config: { folders: 'public', ...config }, files: { 'public/index.html': 'home' } });
    t.is((await site.http.get('/__health__')).status, 404);
  });
}

check('static/health/body-status/status-is-ok-string', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  t.is((await site.http.get('/__health__')).json<Health>().status, 'ok');
});

check('static/health/body-uptime/number-not-decreasing', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const first = (await site.http.get('/__health__')).json<Health>().uptime;
  await new Promise((r) => setTimeout(r, 50));
  const second = (await site.http.get('/__health__')).json<Health>().uptime;
  t.is(typeof first, 'number');
  t.is(typeof second, 'number');
  t.true((second as number) >= (first as number), `uptime went from ${first} to ${second}`);
  t.true((first as number) >= 0);
});

check('static/health/body-timestamp/iso-8601-near-now', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const { timestamp } = (await site.http.get('/__health__')).json<Health>();
  t.is(typeof timestamp, 'string');
  t.regex(timestamp as string, ISO_8601);
  t.true(Math.abs(Date.parse(timestamp as string) - Date.now()) < 60_000, `timestamp ${timestamp} is not near now`);
});

check('static/health/exempt-rate-limit/answers-past-the-limit', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true, rateLimit: { limit: 2 } } });
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await site.http.get('/__health__')).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 200]);
});

check('static/health/exempt-basic-auth/answers-without-credentials', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true, basicAuth: { users: { ann: 'secret' } } } });
  const res = await site.http.get('/__health__');
  t.is(res.status, 200);
  t.is(res.json<Health>().status, 'ok');
});

check('static/health/status-and-type/json-200-and-head', launch, async (t, c) => {
  const site = await startSite(c, { config: { healthCheck: true } });
  const get = await site.http.get('/__health__');
  const head = await site.http.request({ method: 'HEAD', path: '/__health__' });
  t.regex(String(get.headers['content-type']), /^application\/json/);
  t.is(head.status, 200);
  t.is(head.body.length, 0);
});

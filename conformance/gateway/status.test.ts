// GET /status (document 001, "Status object"): the object and each field's meaning, read against a setup
// whose counts the case knows (two sites, four distinct upstream URLs, one of them down). Counting cases that
// need traffic of their own (in flight, in a retry) start their own gateway.
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { check, type CaseContext } from '../harness/index.ts';
import { type Json, needOk, status, successBody } from './admin-client.ts';
import { type Gateway, sharedGateway, startGateway } from './gateway.ts';
import { pollUntil, waitFor } from './poll.ts';
import { GATEWAY, needs, offers } from './target.ts';
import { freshPath } from './traffic.ts';
import { deadUpstream, PROBE_PATH, sharedUpstreams, startUpstreams } from './upstream.ts';

const FIELDS = ['status', 'inflight', 'retry_inflight', 'sites', 'configured_upstreams', 'healthy_upstreams', 'total_probed_upstreams', 'config_path'];
const HEALTH_CHECK = { path: PROBE_PATH, intervalMs: 200, timeoutMs: 2000, healthyThreshold: 1, unhealthyThreshold: 1 };

/** Two sites, four distinct upstream URLs (one never listening), health checks when offered. */
async function statusGateway(c: CaseContext): Promise<Gateway> {
  const [a, b, d] = await sharedUpstreams('status', 'a', 'b', 'c');
  const down = await sharedUpstreams('status-down', 'down');
  return sharedGateway(c, 'status', async () => {
    await down[0]!.kill();
    const health = offers('health-checks') ? { healthCheck: HEALTH_CHECK } : {};
    return {
      sites: [
        { routes: [{ path: '/api', targets: [a!.url, b!.url] }], ...health },
        { host: 'two.test', routes: [{ path: '/web', targets: [d!.url, down[0]!.url] }], ...health },
      ],
    };
  });
}

const isInteger = (v: unknown): boolean => Number.isInteger(v);

check('gateway/status/get-status-object/object-with-every-field', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  const body = successBody(t, await g.admin.get('/status'), 'GET /status');
  if (!body) return;
  for (const field of FIELDS) t.true(field in body, `GET /status lacks ${field}: ${JSON.stringify(body)}`);
});

check('gateway/status/field-status/running', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  t.is((await status(c, g.admin)).status, 'running');
  await new Promise((r) => setTimeout(r, 300));
  t.is((await status(c, g.admin, 'GET /status again')).status, 'running');
});

check('gateway/status/field-sites/configured-site-count', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  t.is((await status(c, g.admin)).sites, 2);
});

check('gateway/status/field-configured-upstreams/targets-over-all-routes', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  t.is((await status(c, g.admin)).configured_upstreams, 4);
});

check('gateway/status/field-healthy-upstreams/passing-probes', needs('health-checks'), async (t, c) => {
  const g = await statusGateway(c);
  const polled = await pollUntil(() => status(c, g.admin), (s) => s.healthy_upstreams === 3, 6000);
  t.true(polled.met, `healthy_upstreams with three of four upstreams answering probes: ${JSON.stringify(polled.value)}`);
});

check('gateway/status/field-total-probed-upstreams/every-probed-upstream', needs('health-checks'), async (t, c) => {
  const g = await statusGateway(c);
  const polled = await pollUntil(() => status(c, g.admin), (s) => s.total_probed_upstreams === 4, 6000);
  t.true(polled.met, `total_probed_upstreams once all four upstreams are probed: ${JSON.stringify(polled.value)}`);
  t.true(isInteger(polled.value.total_probed_upstreams));
});

check('gateway/status/field-config-path/names-loaded-file', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  const value = (await status(c, g.admin)).config_path;
  if (!t.is(typeof value, 'string', `config_path: ${JSON.stringify(value)}`)) return;
  const named = resolve(g.dir, value as string);
  let real = named;
  try {
    real = realpathSync(named);
  } catch {
    // not a file: the comparison below fails
  }
  t.is(real, realpathSync(g.configPath), `config_path ${value} (from the gateway's folder) is not the file it was started with`);
});

/** A gateway with one route to `targets`, of the case's own. */
const ownGateway = (c: CaseContext, targets: string[], extra: Json = {}) => startGateway(c, { sites: [{ routes: [{ path: '/api', targets }], ...extra }] });

check('gateway/status/field-inflight/requests-in-progress', GATEWAY, async (t, c) => {
  const [slow] = await startUpstreams(c, 'slow');
  slow!.answer = () => ({ delayMs: 1500 });
  const g = await ownGateway(c, [slow!.url]);
  const idle = await status(c, g.admin, 'GET /status before any request');
  t.true(isInteger(idle.inflight), `inflight: ${JSON.stringify(idle.inflight)}`);
  const requests = [freshPath('/api'), freshPath('/api')].map((path) => g.http.request({ path, timeoutMs: 10_000 }).catch(() => undefined));
  if (!(await waitFor(() => slow!.received.length >= 2, 5000))) c.inconclusive(`the two requests did not reach the upstream (it got ${slow!.received.length})`);
  const during = await status(c, g.admin, 'GET /status while two requests wait on the upstream');
  t.true(isInteger(during.inflight) && (during.inflight as number) >= 2 && (during.inflight as number) <= 3, `inflight with two requests in progress (the status call itself may count): ${during.inflight}`);
  await Promise.all(requests);
  const after = await pollUntil(() => status(c, g.admin, 'GET /status after the requests'), (s) => isInteger(s.inflight) && (s.inflight as number) <= 1, 2000);
  t.true(after.met, `inflight once both requests are answered: ${after.value.inflight}`);
});

check('gateway/status/field-retry-inflight/requests-in-a-retry', needs('retries'), async (t, c) => {
  const [slow] = await startUpstreams(c, 'slow');
  slow!.answer = () => ({ delayMs: 1500 });
  const dead = await deadUpstream(c);
  const g = await startGateway(c, { sites: [{ routes: [{ path: '/api', strategy: 'round-robin', targets: [dead, slow!.url] }], retries: { attempts: 1 } }] });
  const idle = await status(c, g.admin, 'GET /status before any request');
  t.true(isInteger(idle.retry_inflight), `retry_inflight: ${JSON.stringify(idle.retry_inflight)}`);
  // Round-robin over a dead and a live target: of four requests at once, some meet the dead one first and
  // are retried on the live one.
  const requests = [0, 1, 2, 3].map(() => g.http.request({ path: freshPath('/api'), timeoutMs: 10_000 }).catch(() => undefined));
  if (!(await waitFor(() => slow!.received.length >= 4, 5000))) {
    c.inconclusive(`of four requests over a dead and a live target, ${slow!.received.length} reached the live one: no retry to observe`);
  }
  const during = await status(c, g.admin, 'GET /status while retried requests wait on the upstream');
  t.true(isInteger(during.retry_inflight) && (during.retry_inflight as number) >= 1, `retry_inflight during retries: ${during.retry_inflight}`);
  await Promise.all(requests);
  const after = await pollUntil(() => status(c, g.admin, 'GET /status after the requests'), (s) => s.retry_inflight === 0, 2000);
  t.true(after.met, `retry_inflight once every request is answered: ${JSON.stringify(after.value)}`);
});

// ---------------------------------------------------------------- the reference's choices (unspecified)

check('gateway/status/config-path-absolute/resolved-path', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  const value = (await status(c, g.admin)).config_path as string;
  t.true(isAbsolute(String(value)), `config_path: ${value}`);
  t.is(value, g.configPath);
});

check('gateway/status/inflight-excludes-admin/idle-zero', GATEWAY, async (t, c) => {
  const g = await statusGateway(c);
  const s = await needOk(c, 'GET /status', g.admin.get('/status'));
  t.is(s.inflight, 0, JSON.stringify(s));
  t.is(s.retry_inflight, 0, JSON.stringify(s));
});

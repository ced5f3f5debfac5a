// The merge of the workers' counters into the primary's view (GET /status, GET /upstreams, the metrics path).
import test from 'ava';
import { STATUS, UPSTREAM } from '../admin/test-admin.ts';
import { mergeEntry, mergeListing, mergeStatus, mergedMetrics } from './cluster-merge.ts';
import type { WorkerSnapshot } from './cluster-protocol.ts';
import type { StatusObject, UpstreamEntry, UpstreamState } from './gateway-runtime.ts';

const URL_A = UPSTREAM.url;

function entry(extra: Partial<UpstreamEntry> = {}): UpstreamEntry {
  return { ...UPSTREAM, latency_ms: 3, consecutive_successes: 4, ...extra };
}

const snapshot = (upstreams: UpstreamEntry[], inflight = 0, retryInflight = 0): WorkerSnapshot => ({
  traffic: { inflight, retryInflight },
  upstreams,
  rateLimits: {},
});

test('counters are sums, the latest pick wins, the probe fields are the primary\'s, the 5xx streak the longest', (t) => {
  const merged = mergeEntry(entry({ latency_ms: 7, consecutive_successes: 9 }), [
    entry({ latency_ms: 1, ewma_latency_ms: 10, consecutive_5xx: 2, active_connections: 1, responses: { '2xx': 5, '4xx': 1, '5xx': 2 }, selected: { total: 8, last_secs: 100 } }),
    entry({ latency_ms: 2, ewma_latency_ms: 20, consecutive_5xx: 1, active_connections: 2, responses: { '2xx': 3, '4xx': 0, '5xx': 1 }, selected: { total: 2, last_secs: 200 } }),
  ]);
  t.like(merged, {
    latency_ms: 7,
    consecutive_successes: 9,
    consecutive_5xx: 2,
    active_connections: 3,
    responses: { '2xx': 8, '4xx': 1, '5xx': 3 },
    selected: { total: 10, last_secs: 200 },
    // Weighted by picks: (10 * 8 + 20 * 2) / 10.
    ewma_latency_ms: 12,
    state: 'busy',
    ejected: false,
  });
});

test('the state follows the catalog\'s precedence over the workers: ejected, half-open, unhealthy, busy, healthy', (t) => {
  const state = (primaryHealthy: boolean, workers: [UpstreamState, number][]): UpstreamState =>
    mergeEntry(
      entry({ healthy: primaryHealthy }),
      workers.map(([s, active]) => entry({ state: s, active_connections: active, ejected: s === 'ejected' })),
    ).state;
  t.is(state(true, [['healthy', 0], ['ejected', 0]]), 'ejected');
  t.is(state(false, [['half-open', 0], ['ejected', 0]]), 'ejected');
  t.is(state(false, [['half-open', 0], ['unhealthy', 0]]), 'half-open');
  t.is(state(false, [['unhealthy', 1], ['unhealthy', 0]]), 'unhealthy');
  t.is(state(true, [['healthy', 0], ['busy', 1]]), 'busy');
  t.is(state(true, [['healthy', 0], ['healthy', 0]]), 'healthy');
  t.true(mergeEntry(entry(), [entry({ state: 'ejected', ejected: true })]).ejected);
});

test('status sums in-flight requests; listing keeps the primary\'s order and routes; metrics count every worker', (t) => {
  const primary: StatusObject = { ...STATUS, configured_upstreams: 2 };
  const b = 'http://127.0.0.1:9002';
  const snapshots = [
    snapshot([entry({ selected: { total: 2, last_secs: 1 } }), entry({ url: b })], 2, 1),
    snapshot([entry({ url: b, selected: { total: 5, last_secs: 1 } }), entry({ selected: { total: 1, last_secs: 1 } })], 1, 0),
  ];
  t.like(mergeStatus(primary, snapshots), { inflight: 3, retry_inflight: 1, configured_upstreams: 2 });
  const routes = [{ site: '*:8080', path: '/', strategy: 'round-robin', targets: [] }];
  const listing = mergeListing({ upstreams: [entry(), entry({ url: b })], routes }, snapshots);
  t.deepEqual(
    listing.upstreams.map((u) => [u.url, u.selected.total]),
    [
      [URL_A, 3],
      [b, 5],
    ],
  );
  t.is(listing.routes, routes);
  const metrics = mergedMetrics({ upstreams: [entry(), entry({ url: b })], routes }, snapshots, Date.now());
  t.regex(metrics, /^gateway_inflight_requests 3$/m);
  t.regex(metrics, new RegExp(`^gateway_upstream_requests_total\\{upstream="${b}"\\} 5$`, 'm'));
});

// The rate limits of a gateway of several workers, without processes: workers' limiters wired to the
// primary's lease book directly. Whatever worker takes each request, in any order, sequential or all at
// once, a client gets exactly its limit per window, as one process gives it.
import test from 'ava';
import fc from 'fast-check';
import { buildSiteTable, type SiteState } from '../data-plane/site-table.ts';
import { Upstream } from '../data-plane/upstream.ts';
import { LeaseBook, sumCounters, WorkerLimiter } from './cluster-limits.ts';
import { config, route, site } from './test-support.ts';

const resolve = (url: string) => new Upstream(url);

function gatewayOf(workers: number, limits: Omit<NonNullable<NonNullable<Parameters<typeof site>[0]>['rateLimit']>, 'store'>) {
  const rateLimit = { ...limits, store: 'memory' as const };
  const cfg = config([site({ port: 8080, routes: [route('/api', ['http://127.0.0.1:9'])], rateLimit })]);
  const table = buildSiteTable(cfg, resolve);
  const book = new LeaseBook();
  const limiters: WorkerLimiter[] = [];
  for (let worker = 0; worker < workers; worker++) {
    limiters.push(
      new WorkerLimiter(
        (bucket, client, generation) =>
          book.lease(() => table, { worker, bucket, client, generation }, workers, async (other, b, c) => limiters[other]!.reclaim(b, c)),
        book.generation,
      ),
    );
  }
  const sites = limiters.map((limiter) => limiter.buildTable(cfg, resolve).sites[0]!);
  const decide = (worker: number, path: string, client: string) => limiters[worker]!.decide(sites[worker] as SiteState, path, client);
  const counters = () => sumCounters({ '*:8080': Object.fromEntries(Object.keys(rateLimit?.routes ?? {}).map((p) => [p, { passed: 0, rejected: 0 }])) }, limiters.map((l) => l.counters()));
  const close = () => {
    book.close();
    for (const limiter of limiters) limiter.close();
  };
  return { decide, counters, close, limiters, book };
}

const requests = fc.array(fc.record({ worker: fc.nat({ max: 2 }), client: fc.constantFrom('10.0.0.1', '10.0.0.2') }), { maxLength: 40 });

test('any order of requests over three workers, one at a time: exactly the limit passes per client', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 12 }), requests, async (limit, sent) => {
      const g = gatewayOf(3, { site: { requests: limit, windowMs: 60_000 }, routes: {} });
      try {
        const passed: Record<string, number> = {};
        for (const { worker, client } of sent) {
          const wait = await g.decide(worker, '/api/x', client);
          const before = passed[client] ?? 0;
          // The first `limit` requests of each client pass, every later one is refused.
          if ((wait === 0) !== before < limit) return false;
          if (wait === 0) passed[client] = before + 1;
          else if (wait < 1 || wait > 60) return false;
        }
        return true;
      } finally {
        g.close();
      }
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test('any requests over three workers, all at once: exactly the limit passes per client, and the counters say so', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 12 }), requests, async (limit, sent) => {
      const g = gatewayOf(3, { site: { requests: limit, windowMs: 60_000 }, routes: {} });
      try {
        const waits = await Promise.all(sent.map(({ worker, client }) => g.decide(worker, '/api/x', client)));
        for (const client of ['10.0.0.1', '10.0.0.2']) {
          const mine = sent.flatMap((r, i) => (r.client === client ? [waits[i]!] : []));
          if (mine.filter((w) => w === 0).length !== Math.min(limit, mine.length)) return false;
        }
        const passed = waits.filter((w) => w === 0).length;
        const c = g.counters()['*:8080']!['*'];
        return c === undefined || (c.passed === passed && c.rejected === sent.length - passed);
      } finally {
        g.close();
      }
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test('site and route buckets: the route bucket refuses after its limit, a refused request used its site share', async (t) => {
  const g = gatewayOf(2, { site: { requests: 5, windowMs: 60_000 }, routes: { '/api': { requests: 2, windowMs: 60_000 } } });
  t.teardown(g.close);
  const waits = [];
  for (let i = 0; i < 6; i++) waits.push(await g.decide(i % 2, '/api/x', '10.0.0.1'));
  // Route: 2 pass; the site bucket counted the 3rd to 5th too (refused by the route), so the 6th is the site's.
  t.deepEqual(
    waits.map((w) => w === 0),
    [true, true, false, false, false, false],
  );
  const counters = g.limiters.map((l) => l.counters()['*:8080']!);
  const sum = (path: string, field: 'passed' | 'rejected') => counters.reduce((n, c) => n + c[path]![field], 0);
  t.deepEqual([sum('*', 'passed'), sum('*', 'rejected'), sum('/api', 'passed'), sum('/api', 'rejected')], [2, 1, 2, 3]);
});

test('a client far below its limit costs one question per window and worker', async (t) => {
  const g = gatewayOf(2, { site: { requests: 1_000_000, windowMs: 60_000 }, routes: {} });
  t.teardown(g.close);
  let asked = 0;
  for (let i = 0; i < 1000; i++) {
    const decided = g.decide(i % 2, '/api', '10.0.0.1');
    if (typeof decided !== 'number') asked++;
    t.is(await decided, 0);
  }
  t.is(asked, 2);
});

test('a reload starts every window afresh; a question of the replaced config passes', async (t) => {
  const g = gatewayOf(2, { site: { requests: 1, windowMs: 60_000 }, routes: {} });
  t.teardown(g.close);
  t.is(await g.decide(0, '/', 'c'), 0);
  t.true((await g.decide(1, '/', 'c')) > 0);
  g.book.reset();
  // The workers have not applied the new config yet: their questions pass, counted nowhere.
  t.is(await g.decide(1, '/', 'd'), 0);
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check } from '../harness/index.ts';
import { isRedirect } from './fixtures.ts';
import { refused, runToExit, startSite } from './site.ts';

const launch = { needs: ['launch'] };
/** The statuses a rule may give. */
const ALLOWED = [301, 302, 307, 308] as const;

check('static/redirects/object-string/redirects-to-destination', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': '/new' } } });
  const res = await site.http.get('/old');
  t.is(res.headers.location, '/new');
  // The status of a rule without one is static/redirects/default-status-301.
  t.true(isRedirect(res.status), `status ${res.status}, not a redirect`);
});

check('static/redirects/object-with-status/uses-to-and-status', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': { to: 'https://example.test/x', status: 307 } } } });
  const res = await site.http.get('/old');
  t.is(res.status, 307);
  t.is(res.headers.location, 'https://example.test/x');
});

check('static/redirects/array-form/each-entry-redirects', launch, async (t, c) => {
  const site = await startSite(c, {
    config: { redirects: [{ from: '/a', to: '/b', status: 302 }, { from: '/c', to: '/d' }] },
  });
  const a = await site.http.get('/a');
  const cc = await site.http.get('/c');
  // Both entries redirect, the one with a status and the one without; the statuses they answer with are the
  // clauses static/redirects/status-302 and default-status-301.
  t.true(isRedirect(a.status), `/a answered ${a.status}`);
  t.is(a.headers.location, '/b');
  t.true(isRedirect(cc.status), `/c answered ${cc.status}`);
  t.is(cc.headers.location, '/d');
});

check('static/redirects/default-status-301/object-form', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': '/new', '/o2': { to: '/n2' } } } });
  t.is((await site.http.get('/old')).status, 301);
  t.is((await site.http.get('/o2')).status, 301);
});

check('static/redirects/default-status-301/array-form', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: [{ from: '/old', to: '/new' }] } });
  t.is((await site.http.get('/old')).status, 301);
});

for (const status of ALLOWED) {
  check(`static/redirects/status-${status}/answers-with-${status}`, launch, async (t, c) => {
    const site = await startSite(c, { config: { redirects: [{ from: '/from', to: '/to', status }] } });
    const res = await site.http.get('/from');
    t.is(res.status, status);
    t.is(res.headers.location, '/to');
  });
}

for (const status of [200, 303, 404, 'moved'] as const) {
  check(`static/redirects/disallowed-status-rejected/status-${status}`, launch, async (t, c) => {
    const exit = await runToExit(c, { config: { redirects: [{ from: '/a', to: '/b', status }] } });
    refused(t, exit, `a redirect with status ${JSON.stringify(status)}`);
  });
}

check('static/redirects/from-required/missing-from-rejected', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { redirects: [{ to: '/b' }] } });
  refused(t, exit, 'a redirect without from');
});

check('static/redirects/to-required/missing-to-rejected', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { redirects: [{ from: '/a' }] } });
  refused(t, exit, 'a redirect without to');
});

// Paths no reading of "source path" (exact, or a prefix by segment or by text) takes for /old: whether
// /old/x or /older match is static/redirects/location-and-query.
check('static/redirects/non-matching-path/not-redirected', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': '/new' } } });
  for (const path of ['/ol', '/other', '/', '/x/old']) {
    const res = await site.http.get(path);
    t.false(isRedirect(res.status), `${path} answered ${res.status}`);
  }
});

check('static/redirects/location-and-query/longer-paths-not-redirected', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': '/new' } } });
  t.deepEqual([(await site.http.get('/older')).status, (await site.http.get('/old/x')).status], [404, 404]);
});

check('static/redirects/location-and-query/exact-path-location-verbatim', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': '/new?x=1' } } });
  const res = await site.http.get('/old?keep=me');
  t.true(isRedirect(res.status), `status ${res.status}, not a redirect`);
  t.is(res.headers.location, '/new?x=1');
});

check('static/redirects/methods/post-redirected-too', launch, async (t, c) => {
  const site = await startSite(c, { config: { redirects: { '/old': { to: '/new', status: 308 } } } });
  const res = await site.http.request({ method: 'POST', path: '/old', body: 'x' });
  t.is(res.status, 308);
});

check('static/redirects/error-key/startup-error-names-key', launch, async (t, c) => {
  const exit = await runToExit(c, { config: { redirects: [{ from: '/a', to: '/b' }, { from: '/c', to: '/d', status: 303 }] } });
  t.regex(exit.stderr, /redirects\[1\]\.status/);
});

// Property: any valid rule set (both forms, any allowed or omitted status) answers every source with its
// status (301 when omitted) and its destination as Location.
const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const rule = fc.record({
  from: fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  to: fc.oneof(
    fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
    segment.map((s) => `https://example.test/${s}`),
  ),
  status: fc.option(fc.constantFrom(...ALLOWED), { nil: undefined }),
});
/** Whether one source is a prefix of the other (as text): how such pairs match is open. */
const overlapping = (a: string, b: string): boolean => a.startsWith(b) || b.startsWith(a);
const ruleSet = fc.record({
  rules: fc
    .uniqueArray(rule, { minLength: 1, maxLength: 6, selector: (r) => r.from })
    .filter((rules) => rules.every((r, i) => rules.every((o, j) => i === j || !overlapping(r.from, o.from)))),
  arrayForm: fc.boolean(),
});

check('static/redirects/default-status-301/any-valid-rule-set', { ...launch, timeoutMs: 120_000 }, async (_t, c) => {
  await c.property(
    ruleSet,
    async ({ rules, arrayForm }) => {
      const redirects = arrayForm
        ? rules.map((r) => ({ from: r.from, to: r.to, ...(r.status ? { status: r.status } : {}) }))
        : Object.fromEntries(rules.map((r) => [r.from, r.status ? { to: r.to, status: r.status } : r.to]));
      const site = await startSite(c, { config: { redirects } });
      try {
        for (const r of rules) {
          const res = await site.http.get(r.from);
          assert.equal(res.status, r.status ?? 301, `${r.from}: status`);
          assert.equal(res.headers.location, r.to, `${r.from}: Location`);
        }
      } finally {
        await site.launched.stop();
      }
    },
    { numRuns: 8 },
  );
});

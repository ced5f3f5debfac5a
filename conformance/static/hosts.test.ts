import { check } from '../harness/index.ts';
import { startSite } from './site.ts';

const launch = { needs: ['launch'] };

function sites(ports: number[], list: Record<string, unknown>[]): Record<string, unknown>[] {
  return list.map((s) => ({ port: ports[0], ...s }));
}

check('static/hosts/exact-host-match/served-by-named-site', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }, { host: 'beta.test', folders: 'b' }]),
    files: { 'a/who.txt': 'ALPHA', 'b/who.txt': 'BETA' },
  });
  t.is((await site.http.get('/who.txt', { host: 'alpha.test' })).text, 'ALPHA');
  t.is((await site.http.get('/who.txt', { host: 'beta.test' })).text, 'BETA');
});

check('static/hosts/exact-host-match/other-host-not-served', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }]),
    files: { 'a/who.txt': 'ALPHA' },
  });
  const res = await site.http.get('/who.txt', { host: 'gamma.test' });
  t.not(res.text, 'ALPHA');
});

check('static/hosts/catch-all-star/any-other-host', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }, { host: '*', folders: 'any' }]),
    files: { 'a/who.txt': 'ALPHA', 'any/who.txt': 'ANY' },
  });
  t.is((await site.http.get('/who.txt', { host: 'whatever.test' })).text, 'ANY');
});

check('static/hosts/catch-all-omitted/no-host-key', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }, { folders: 'any' }]),
    files: { 'a/who.txt': 'ALPHA', 'any/who.txt': 'ANY' },
  });
  t.is((await site.http.get('/who.txt', { host: 'whatever.test' })).text, 'ANY');
  t.is((await site.http.get('/who.txt', { host: 'alpha.test' })).text, 'ALPHA');
});

check('static/hosts/specific-before-catch-all/catch-all-listed-first', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: '*', folders: 'any' }, { host: 'alpha.test', folders: 'a' }]),
    files: { 'a/who.txt': 'ALPHA', 'any/who.txt': 'ANY' },
  });
  t.is((await site.http.get('/who.txt', { host: 'alpha.test' })).text, 'ALPHA');
});

check('static/hosts/sites-per-port/each-port-its-site', launch, async (t, c) => {
  const site = await startSite(c, {
    ports: 2,
    config: (p) => [
      { port: p[0], folders: 'one' },
      { port: p[1], folders: 'two' },
    ],
    files: { 'one/who.txt': 'ONE', 'two/who.txt': 'TWO' },
  });
  t.is((await site.client(site.launched.ports[0]!).get('/who.txt')).text, 'ONE');
  t.is((await site.client(site.launched.ports[1]!).get('/who.txt')).text, 'TWO');
});

check('static/hosts/case-and-port/case-insensitive-port-ignored', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }, { folders: 'any' }]),
    files: { 'a/who.txt': 'ALPHA', 'any/who.txt': 'ANY' },
  });
  t.is((await site.http.get('/who.txt', { host: 'ALPHA.Test' })).text, 'ALPHA');
  t.is((await site.http.get('/who.txt', { host: `alpha.test:${site.port}` })).text, 'ALPHA');
});

check('static/hosts/no-matching-site/404', launch, async (t, c) => {
  const site = await startSite(c, {
    config: (p) => sites(p, [{ host: 'alpha.test', folders: 'a' }]),
    files: { 'a/who.txt': 'ALPHA' },
  });
  const res = await site.http.get('/who.txt', { host: 'gamma.test' });
  t.is(res.status, 404);
  t.is(res.text, 'Not Found');
});

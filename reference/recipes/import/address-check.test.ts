// The import's address check (catalog recipes/import/failures): only public unicast addresses by default — IP
// literals, names resolving to a refused address, and redirects alike — and everything with allowPrivateAddresses.
import test from 'ava';
import { addressProblem, checkedLookup, literalAddress } from './address-check.ts';
import { ImportError, importRecipe } from './index.ts';
import { type PageServer, startPageServer } from './test-page-server.ts';

let server: PageServer;
test.before(async () => {
  server = await startPageServer();
});
test.after.always(async () => {
  await server?.close();
});

// [address, refused as]
const refused: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['::1', /loopback/],
  ['::ffff:127.0.0.1', /loopback/],
  ['10.0.0.1', /private/],
  ['172.16.5.4', /private/],
  ['192.168.1.1', /private/],
  ['fd12:3456::1', /private \(unique local\)/],
  ['169.254.169.254', /link-local/],
  ['fe80::1', /link-local/],
  ['0.0.0.0', /unspecified/],
  ['::', /unspecified/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['224.0.0.1', /multicast/],
  ['255.255.255.255', /broadcast/],
];
for (const [address, reason] of refused) {
  test(`refused address: ${address}`, (t) => {
    t.regex(addressProblem(address) ?? 'accepted', reason);
  });
}

test('public unicast addresses pass', (t) => {
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) t.is(addressProblem(address), null, address);
});

test('IP literals of URL hosts, bracketed or not; names are not literals', (t) => {
  t.is(literalAddress('[::1]'), '::1');
  t.is(literalAddress('10.0.0.1'), '10.0.0.1');
  t.is(literalAddress('localhost'), null);
  t.is(literalAddress('cook.example'), null);
});

test('the checked lookup refuses a name that resolves to a loopback address', async (t) => {
  const lookup = checkedLookup((problem) => new Error(problem));
  const error = await new Promise<Error | null>((resolve) => lookup('localhost', {}, (err) => resolve(err)));
  t.regex(error?.message ?? 'resolved', /^localhost resolves to .* loopback/);
});

// [url of the page server, how its host is written]
const local = (origin: string) => [
  [`${origin}/pages/jsonld-plain.html`, '127.0.0.1'],
  [`${origin.replace('127.0.0.1', 'localhost')}/pages/jsonld-plain.html`, 'localhost'],
  [`${origin.replace('127.0.0.1', '[::ffff:7f00:1]')}/pages/jsonld-plain.html`, 'IPv4-mapped IPv6'],
];

test('by default a page on a loopback address is refused as invalid-url, without a request', async (t) => {
  for (const [url, host] of local(server.origin)) {
    // A query of its own: the other tests of the file fetch from the same server meanwhile.
    const unique = `${url}?refused=${Math.random().toString(36).slice(2)}`;
    const error = await t.throwsAsync(importRecipe(unique), { instanceOf: ImportError });
    t.is(error?.code, 'invalid-url', host);
    t.regex(error?.message ?? '', /url refused: .*loopback address; the import does not fetch from loopback, private, link-local or unspecified addresses/, host);
    t.deepEqual(server.requests.filter((r) => unique.endsWith(r)), [], host);
  }
});

test('refused before connecting: link-local, private and unspecified literals', async (t) => {
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.255.255.1/', 'http://0.0.0.0:1/', 'http://[fe80::1]/']) {
    const error = await t.throwsAsync(importRecipe(url), { instanceOf: ImportError });
    t.is(error?.code, 'invalid-url', url);
  }
});

test('allowPrivateAddresses lifts the check (the suite serves its pages on 127.0.0.1)', async (t) => {
  for (const [url, host] of local(server.origin).slice(0, 2)) {
    t.is((await importRecipe(url!, { allowPrivateAddresses: true })).title, 'Garlic Butter Noodles', host);
  }
});

// ipFilter.deny entries: the forms accepted, their normal form, and agreement with the data plane's parser
// (the one POST/DELETE /ip-deny use) on any address or block.
import test from 'ava';
import fc from 'fast-check';
import { parseBlock } from '../data-plane/ip-filter.ts';
import { normalizeCidr } from './cidr.ts';

const cases: [string, string | undefined][] = [
  ['10.0.0.0/8', '10.0.0.0/8'],
  ['10.1.2.3/8', '10.0.0.0/8'],
  ['192.0.2.7', '192.0.2.7/32'],
  ['0.0.0.0/0', '0.0.0.0/0'],
  ['2001:DB8:0:0::1', '2001:db8::1/128'],
  ['2001:db8::/32', '2001:db8::/32'],
  ['::ffff:192.0.2.7', '192.0.2.7/32'],
  [' 10.0.0.1 ', '10.0.0.1/32'],
  ['10.0.0.0/33', undefined],
  ['::/129', undefined],
  ['010.0.0.1', undefined],
  ['1', undefined],
  ['0x7f.0.0.1', undefined],
  ['fe80::1%eth0', undefined],
  ['10.0.0.0/', undefined],
  ['10.0.0.0/8/8', undefined],
  ['10.0.0.0/-1', undefined],
  ['example.test', undefined],
  ['', undefined],
];

for (const [text, normal] of cases) {
  test(`normalizeCidr(${JSON.stringify(text)})`, (t) => {
    t.is(normalizeCidr(text), normal);
  });
}

test('property: the config and the admin API accept the same blocks, in the same normal form', (t) => {
  const prefix = fc.option(fc.integer({ min: 0, max: 140 }), { nil: undefined });
  const address = fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), fc.string({ maxLength: 12 }));
  fc.assert(
    fc.property(address, prefix, (ip, bits) => {
      const text = bits === undefined ? ip : `${ip}/${bits}`;
      return normalizeCidr(text) === parseBlock(text)?.key;
    }),
    { numRuns: 500 },
  );
  t.pass();
});

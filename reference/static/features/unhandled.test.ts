// Accept-key choice of the unhandled response: explicit types only, in the order the client ranks them.
import test from 'ava';
import type { UnhandledKey } from '../config/site-config.ts';
import { chooseKey, keyOfMediaType } from './unhandled.ts';

const mapping: [string, UnhandledKey | null][] = [
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['application/json', 'json'],
  ['application/problem+json', 'json'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
  ['image/svg+xml', 'xml'],
  ['*/*', null],
  ['text/*', null],
  ['text/plain', null],
];

for (const [type, key] of mapping) {
  test(`media type ${type} maps to ${key}`, (t) => {
    t.is(keyOfMediaType(type), key);
  });
}

test('first configured key in client order wins, else *', (t) => {
  const configured = new Set<UnhandledKey>(['json', '*']);
  t.is(chooseKey(['application/xml', 'application/json'], configured), 'json');
  t.is(chooseKey(['text/html'], configured), '*');
  t.is(chooseKey([], configured), '*');
  t.is(chooseKey(['text/html'], new Set<UnhandledKey>(['json'])), null);
});

import test from 'ava';
import type { MiddlewareStep } from '../config/gateway-config.ts';
import { rewrite } from './site-serving.ts';

const steps: MiddlewareStep[] = [
  { kind: 'stripPrefix', prefix: '/v1' },
  { kind: 'addPrefix', prefix: '/api/' },
  { kind: 'replacePathRegex', pattern: /\/users\/(\d+)/, replacement: '/people/$1' },
  { kind: 'redirectRegex', pattern: /^\/api\/old\/(.*)$/, replacement: '/new/$1', status: 308 },
];

for (const [url, expected] of [
  ['/v1/users/7?full=1', { url: '/api/people/7?full=1' }],
  ['/v1', { url: '/api/' }],
  ['/v10/x', { url: '/api/v10/x' }],
  ['/v1/old/a/b?q=1', { redirect: '/new/a/b?q=1', status: 308 }],
  ['/x?y=/v1', { url: '/api/x?y=/v1' }],
] as const) {
  test(`rewrite ${url}`, (t) => {
    t.deepEqual(rewrite(steps, url), expected);
  });
}

test('rewrite without steps keeps the target', (t) => {
  t.deepEqual(rewrite([], '/a?b'), { url: '/a?b' });
});

// The request target sent upstream: the one the proxy sent when it ran on http-proxy (the expectations below
// are what http-proxy 1.18 built for the same target path and URL), and the fast way for plain URLs gives
// exactly what the slow, exact way gives.
import { parse } from 'node:url';
import test from 'ava';
import fc from 'fast-check';
import { createTargets, joinPaths, type Target, upstreamPath } from './proxy-targets.ts';

function target(url: string): { target: Target; destroy(): Promise<void> } {
  const parsed = new URL(url);
  const table = createTargets([{ prefix: '/', targets: [{ href: url, url: parsed }] }]);
  return { target: table.rules[0]!.targets[0]!, destroy: () => table.destroy() };
}

const CASES: [targetUrl: string, url: string, expected: string][] = [
  ['http://127.0.0.1:9', '/api/x?q=1', '/api/x?q=1'],
  ['http://127.0.0.1:9', '/api/a//b', '/api/a/b'],
  ['http://127.0.0.1:9', '/api/a?x=//y&u=http://z', '/api/a?x=//y&u=http://z'],
  ['http://127.0.0.1:9', '/api/http:/x', '/api/http://x'],
  ['http://127.0.0.1:9', '/api/x#frag', '/api/x'],
  ['http://127.0.0.1:9', '/api/a\\b?c\\d', '/api/a/b?c\\d'],
  ['http://127.0.0.1:9', 'http://front.test/api/item', '/api/item'],
  ['http://127.0.0.1:9', '*', '*'],
  ['http://127.0.0.1:9', '/api/a b', '/api/a%20b'],
  ['http://127.0.0.1:9', '/api/fünke.txt', '/api/fünke.txt'],
  ['http://127.0.0.1:9', '/api/a"b{c}', '/api/a"b{c}'],
  ['http://127.0.0.1:9', '/api/%2F?%2F', '/api/%2F?%2F'],
  ['http://127.0.0.1:9/base', '/x?y', '/base/x?y'],
  ['http://127.0.0.1:9/base/', '/', '/base/'],
  ['http://127.0.0.1:9/a//b/', '/c', '/a/b/c'],
];

for (const [targetUrl, url, expected] of CASES) {
  test(`${targetUrl} + ${JSON.stringify(url)} goes upstream as ${JSON.stringify(expected)}`, async (t) => {
    const { target: at, destroy } = target(targetUrl);
    try {
      t.is(upstreamPath(at, url), expected);
    } finally {
      await destroy();
    }
  });
}

test('a path with characters a request line cannot hold is refused as node:http refused it', async (t) => {
  const { target: at, destroy } = target('http://127.0.0.1:9');
  try {
    const error = t.throws(() => upstreamPath(at, '/api/你'), { instanceOf: TypeError });
    t.is((error as NodeJS.ErrnoException).code, 'ERR_UNESCAPED_CHARACTERS');
  } finally {
    await destroy();
  }
});

test('the fast way for plain URLs gives what url.parse and the join give', async (t) => {
  const targets = ['http://127.0.0.1:9', 'http://127.0.0.1:9/base', 'http://127.0.0.1:9/base/'].map(target);
  // Characters that matter to url.parse or the join, among ordinary ones.
  const char = fc.constantFrom(...'/?#\\:.%aZ9-_~ "\'<>^`{|}h t p s'.split(''), 'é', '\t');
  const url = fc.array(char, { maxLength: 24 }).map((chars) => `/${chars.join('')}`);
  try {
    fc.assert(
      fc.property(url, fc.constantFrom(...targets), (u, { target: at }) => {
        const exact = joinPaths(at.basePath, parse(u).path ?? '');
        let got: string;
        try {
          got = upstreamPath(at, u);
        } catch {
          got = 'refused';
        }
        return got === (/[^\u0021-\u00ff]/.test(exact) ? 'refused' : exact);
      }),
      { numRuns: 5000 },
    );
    t.pass();
  } finally {
    await Promise.all(targets.map((x) => x.destroy()));
  }
});

// Links out of a served folder are not followed, in production (start-up index) and development (per
// request); links that stay inside are. A dangling link or a loop of links, which stop sirv's start-up index,
// make a production folder read from disk instead of failing the start.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { SiteContext } from '../site/handler.ts';
import { serve } from '../site/serve-for-tests.ts';
import { readsSettled } from './file-cache.ts';
import { scanFolder } from './folder-links.ts';
import { createStaticFolders } from './static-folders.ts';

/** A served folder `public` beside a secret, with links out and in, and (`broken`) a loop and a dangling link. */
function tree(broken: boolean): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'conform-test-links-'));
  const dir = join(root, 'public');
  mkdirSync(join(dir, 'inner'), { recursive: true });
  mkdirSync(join(root, 'secrets'));
  writeFileSync(join(root, 'secrets', 'key.txt'), 'SECRET');
  writeFileSync(join(root, 'secrets', 'index.html'), 'SECRET INDEX');
  writeFileSync(join(dir, 'inner', 'page.txt'), 'INNER');
  writeFileSync(join(dir, 'plain.txt'), 'PLAIN');
  symlinkSync(join(root, 'secrets', 'key.txt'), join(dir, 'key.txt')); // a file out
  symlinkSync(join(root, 'secrets'), join(dir, 'vault')); // a folder out
  symlinkSync(join(root, 'secrets', 'index.html'), join(dir, 'about.html')); // out, found as /about
  symlinkSync('inner/page.txt', join(dir, 'alias.txt')); // a file in
  symlinkSync('inner', join(dir, 'shortcut')); // a folder in
  if (broken) {
    symlinkSync('..', join(dir, 'inner', 'up')); // a loop back to the folder
    symlinkSync(join(root, 'nowhere'), join(dir, 'dangling.txt'));
  }
  return { root, dir };
}

const EXPECTED: [string, number, string?][] = [
  ['/plain.txt', 200, 'PLAIN'],
  ['/alias.txt', 200, 'INNER'],
  ['/shortcut/page.txt', 200, 'INNER'],
  ['/key.txt', 404],
  ['/vault/key.txt', 404],
  ['/vault/', 404],
  ['/about', 404],
  ['/about.html', 404],
  ['/dangling.txt', 404],
];

test('the scan: links out are refused, the rest indexable; a loop or a dangling link is what sirv cannot index', (t) => {
  const { root, dir } = tree(false);
  try {
    t.like(scanFolder(join(dir, 'inner')), { links: null, unindexable: null });
    const { links, unindexable } = scanFolder(dir);
    t.is(unindexable, null);
    t.true(links!.refuses('/vault/key.txt'));
    t.true(links!.refuses('/about'));
    t.false(links!.refuses('/plain.txt'));
    t.false(links!.refuses('/shortcut/page.txt'));
    symlinkSync('..', join(dir, 'inner', 'up'));
    t.regex(scanFolder(dir).unindexable ?? '', /inner\/up: a link to a folder that holds it/);
    rmSync(join(dir, 'inner', 'up'));
    symlinkSync(join(root, 'nowhere'), join(dir, 'dangling.txt'));
    t.regex(scanFolder(dir).unindexable ?? '', /dangling\.txt: ENOENT/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

const SETUPS = [
  ['production', false],
  ['production', true],
  ['development', true],
] as const;

for (const [mode, broken] of SETUPS) {
  test(`${mode}${broken ? ', with a loop and a dangling link' : ''}: a file behind a link out of the folder is not served; links inside are followed`, async (t) => {
    const { root, dir } = tree(broken);
    const warnings: string[] = [];
    const ctx: SiteContext = { baseDir: root, mode, warn: (line) => warnings.push(line) };
    const server = await serve(createStaticFolders([{ mount: '/', dir, key: 'folders' }], ctx, null));
    try {
      t.is(warnings.length, mode === 'production' && broken ? 1 : 0, warnings.join('\n'));
      const expected: typeof EXPECTED = broken ? [...EXPECTED, ['/inner/up/plain.txt', 200, 'PLAIN']] : EXPECTED;
      // Twice: the second time, small files a production folder has read are answered from memory.
      for (const round of [1, 2]) {
        for (const [path, status, body] of expected) {
          const res = await fetch(server.url + path);
          const text = await res.text();
          t.is(res.status, status, `${path} (${round})`);
          if (body !== undefined) t.is(text, body, `${path} (${round})`);
          t.false(text.includes('SECRET'), `${path} (${round})`);
        }
        await readsSettled();
      }
    } finally {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
}

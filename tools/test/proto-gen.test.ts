// proto/gen is generated (`npm run gen`) and must match proto/: regenerate into a temporary folder and
// compare byte for byte.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { tempDir } from './run-cli.ts';

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

test('proto/gen is current with proto/', (t) => {
  const out = tempDir();
  const buf = join(PROJECT_ROOT, 'node_modules', '.bin', 'buf');
  execFileSync(buf, ['generate', '--template', 'proto/buf.gen.yaml', '-o', out], { cwd: PROJECT_ROOT });
  const fresh = join(out, 'proto', 'gen');
  const committed = join(PROJECT_ROOT, 'proto', 'gen');
  t.deepEqual(files(fresh), files(committed));
  for (const file of files(fresh)) {
    t.is(readFileSync(join(committed, file), 'utf8'), readFileSync(join(fresh, file), 'utf8'), `${file} is stale: run npm run gen`);
  }
});

test('the proto passes buf lint', (t) => {
  const buf = join(PROJECT_ROOT, 'node_modules', '.bin', 'buf');
  t.notThrows(() => execFileSync(buf, ['lint', 'proto'], { cwd: PROJECT_ROOT, stdio: 'pipe' }));
});

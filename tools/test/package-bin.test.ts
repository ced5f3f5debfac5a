// The static server installs under its name and a short alias, both runnable.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

for (const name of ['static-proxy', 'sp', 'translate-server']) {
  test(`bin ${name} is mapped to an executable that prints the usage`, (t) => {
    const file = join(PROJECT_ROOT, pkg.bin[name] ?? '');
    t.notThrows(() => accessSync(file, constants.X_OK));
    t.regex(execFileSync(file, ['--help'], { encoding: 'utf8' }), /--config/);
  });
}

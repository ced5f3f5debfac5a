// The reference servers install under their names (the static server also under a short alias), all runnable.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

/** Each bin and a line its usage text must hold. */
const USAGE: Record<string, RegExp> = {
  conform: /--surface/,
  'static-proxy': /--config/,
  sp: /--config/,
  'translate-server': /--config/,
  'translate-tools': /TRANSLATE_GRPC_URL/,
  'translate-web': /TRANSLATE_GRPC_URL/,
  gateway: /gateway <command>/,
};

for (const [name, usage] of Object.entries(USAGE)) {
  test(`bin ${name} is mapped to an executable that prints the usage`, (t) => {
    const file = join(PROJECT_ROOT, pkg.bin[name] ?? '');
    t.notThrows(() => accessSync(file, constants.X_OK));
    t.regex(execFileSync(file, ['--help'], { encoding: 'utf8' }), usage);
  });
}

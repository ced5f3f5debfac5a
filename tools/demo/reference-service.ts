// For the demos: the reference translation service from source, with the translate suite's reference
// configuration (Apertium, fastText, PocketSphinx, espeak-ng voices), on a free loopback port.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';

const CONFIG = join(PROJECT_ROOT, 'conformance/translate/reference-target/config.json');

/** Resolves with the service's address once it listens; `stop` ends it. */
export function startService(): Promise<{ address: string; stop(): void }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'reference/translate/bin/translate-server.js'), '--port', '0', '--config', CONFIG], {
    // The configuration's `loop` model redirects to itself; here it points nowhere.
    env: { ...process.env, TRANSLATE_BIND: '127.0.0.1', Translation__Models__loop__address: '127.0.0.1:1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const port = /listening on \S+?:(\d+)/.exec(out)?.[1];
      if (port) resolve({ address: `127.0.0.1:${port}`, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`the translation service exited with ${code}`)));
  });
}

// For the demos: the reference servers from source on free loopback ports — the translation service with
// the translate suite's reference configuration (Apertium, fastText, PocketSphinx, espeak-ng voices), and
// the web gateway in front of it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';

const CONFIG = join(PROJECT_ROOT, 'conformance/translate/reference-target/config.json');

/** Runs a reference bin until its `listening on <address>` line; resolves with the address. */
function startListening(bin: string, args: string[], env: Record<string, string>): Promise<{ address: string; stop(): void }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, bin), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const address = /listening on (\S+)\n/.exec(out)?.[1];
      if (address) resolve({ address, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`${bin} exited with ${code}`)));
  });
}

/** The translation service; `address` is host:port. */
export function startService(): Promise<{ address: string; stop(): void }> {
  return startListening('reference/translate/bin/translate-server.js', ['--port', '0', '--config', CONFIG], {
    TRANSLATE_BIND: '127.0.0.1',
    // The configuration's `loop` model redirects to itself; here it points nowhere.
    Translation__Models__loop__address: '127.0.0.1:1',
  });
}

/** The web gateway in front of the service at `grpcUrl`; `address` is its http:// URL. */
export function startGateway(grpcUrl: string): Promise<{ address: string; stop(): void }> {
  return startListening('reference/translate-web/bin/translate-web.js', [], { PORT: '0', WEB_BIND: '127.0.0.1', TRANSLATE_GRPC_URL: grpcUrl });
}

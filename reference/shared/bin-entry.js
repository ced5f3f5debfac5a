// What each command of the package runs: in an installed package, the JavaScript built for it (npm run package
// builds dist/ and the reference bundles; dist/built.json marks such a copy); in a checkout, the TypeScript
// entry through tsx (a development dependency).
import { existsSync } from 'node:fs';

const PACKAGED = existsSync(new URL('../../dist/built.json', import.meta.url));

/** Runs `built` (a path from the package's root) in an installed package, else `source` (a file URL). A
 * failure that the entry did not report itself is one line and exit code 1, not a stack trace. */
export async function runBuiltOrSource(built, source) {
  try {
    if (PACKAGED) {
      await import(new URL(`../../${built}`, import.meta.url).href);
      return;
    }
    const { register } = await import('tsx/esm/api');
    register();
    await import(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message.split('\n', 1)[0]}\n`);
    process.exitCode = 1;
  }
}

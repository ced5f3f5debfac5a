// Whether a recipe manager started without waiting for a port (start options `listen: []`) comes to listen on
// the one a case expects: its failure to do so is the case's verdict, not a start that failed.
import type { Launched } from '../harness/launch.ts';
import { portOpen } from '../harness/launch.ts';

const LISTEN_LIMIT_MS = 10_000;

/** undefined once `port` accepts connections; else why not (the process ended, or the limit passed). */
export async function listensOn(launched: Launched, port: number): Promise<string | undefined> {
  let ended = false;
  void launched.exited.then(() => {
    ended = true;
  });
  for (const until = Date.now() + LISTEN_LIMIT_MS; Date.now() < until; await new Promise((r) => setTimeout(r, 25))) {
    if (await portOpen(port)) return undefined;
    if (ended) return `the recipe manager exited without listening on ${port}: ${launched.stderr().trim().slice(-500) || '(no stderr)'}`;
  }
  return `nothing listens on ${port} ${LISTEN_LIMIT_MS} ms after the start`;
}

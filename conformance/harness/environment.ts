// What the machine running the suites offers, independent of the target: merged into every target's
// capabilities. `browser`: a Chromium the cases can drive (CHROMIUM_PATH, else Debian's /usr/bin/chromium);
// `redis-server`: a Redis the cases can start (redis-server.ts).
import { existsSync } from 'node:fs';
import { hasRedisServer } from './redis-server.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Flags for a headless Chromium on a closed network (no background connections, no sandbox as root). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

export function environmentCapabilities(): string[] {
  return [...(existsSync(CHROMIUM_PATH) ? ['browser'] : []), ...(hasRedisServer() ? ['redis-server'] : [])];
}

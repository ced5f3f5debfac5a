// Tools of the harness itself, on the machine running the suites: a case names the ones it needs among its
// `needs`. A tool that is missing is not something the target lacks: such a case ends as `error` with what
// to install (never `not-applicable`, which says the target lacks a capability). `browser`: a Chromium the
// cases can drive (CHROMIUM_PATH, else Debian's /usr/bin/chromium); `redis-server`: a Redis the cases can
// start (redis-server.ts).
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

interface HarnessTool {
  present(): boolean;
  /** What is missing and how to get it, for the case's `error`. */
  missing: string;
}

const HARNESS_TOOLS: Record<string, HarnessTool> = {
  browser: {
    present: () => existsSync(CHROMIUM_PATH),
    missing: `the harness drives Chromium for this case and finds none at ${CHROMIUM_PATH} (install the Debian package chromium, or set CHROMIUM_PATH)`,
  },
  'redis-server': {
    present: hasRedisServer,
    missing: `the harness starts a Redis for this case and finds no redis-server (install the Debian package redis-server, or set REDIS_SERVER)`,
  },
};

/** Whether `need` names a tool of the harness rather than a capability of the target. */
export const isHarnessTool = (need: string): boolean => need in HARNESS_TOOLS;

/** Why the harness cannot stage a case needing `needs` on this machine, or undefined when it can. */
export function missingHarnessTools(needs: string[]): string | undefined {
  const missing = needs.filter((n) => isHarnessTool(n) && !HARNESS_TOOLS[n]!.present()).map((n) => HARNESS_TOOLS[n]!.missing);
  return missing.length > 0 ? missing.join('; ') : undefined;
}

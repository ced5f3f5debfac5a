// The gateway suite's view of its target: a `cmd:` command that starts the gateway with a config file
// (`{config}`), and what its description tells the suite that it cannot ask the gateway itself — its CLI
// command, the adapter that renders the suite's neutral setup into the target's own config format, the
// config file's name, and the optional features it offers (capabilities). Every key is declared, with what it
// means, in description.schema.json; see README.md.
import type { CaseOptions } from '../harness/check.ts';
import { runEnv, type TargetSpec } from '../harness/run-env.ts';

export const target: TargetSpec = runEnv.targets['gateway']!;

export interface GatewayDescription {
  /** The target's CLI command (the admin shortcuts and the offline commands), a template with {root}. */
  cli?: string;
  /** Reads the neutral setup (JSON) on stdin, writes the target's config file text on stdout; {root}
   * expands. Absent: the neutral form itself is the config file. */
  adapter?: string;
  /** The config file's name in the target's folder; default `gateway.yaml`. */
  configName?: string;
  /** Whether a config without a cache section leaves the gateway without the cache feature (a purge answers
   * 501); default `unavailable`. */
  cacheSectionAbsent?: 'unavailable' | 'available';
  /** The CLI's arguments that report its version; default `--version`, then `version`. */
  versionArgs?: string[];
}

export const description = (target?.description ?? {}) as GatewayDescription;

export const CONFIG_NAME = description.configName ?? 'gateway.yaml';

/** Optional features a target declares in its description's `capabilities`. */
export const FEATURES = [
  'cache', 'tls', 'health-checks', 'outlier-detection', 'retries', 'rate-limit', 'metrics',
  'basic-auth', 'api-key', 'jwt-auth', 'forward-auth', 'consumers', 'redis',
  'request-transform', 'response-transform', 'security-headers', 'cors', 'mask-errors', 'limits', 'fallback',
  'proxy', 'static', 'middleware', 'logging', 'compression', 'upload', 'http2',
] as const;
export type Feature = (typeof FEATURES)[number];

/** Case options: the suite starts the gateway itself (a `cmd:` target), with the features the case needs. */
export function needs(...features: Feature[]): CaseOptions {
  return { needs: ['launch', ...features] };
}

export const GATEWAY: CaseOptions = needs();

/** Cases that run the target's CLI command: not-applicable when its description names none. */
export const CLI: CaseOptions = {
  needs: ['launch'],
  applicable: async () => (description.cli ? undefined : 'the target description names no `cli` command'),
};

/** Whether the target offers `feature`: shared setups include a feature's section only then. */
export const offers = (feature: Feature): boolean => target?.capabilities.includes(feature) ?? false;

/** Whether a gateway whose config has no cache section lacks the cache feature, so that its purge must answer
 * 501 (description `cacheSectionAbsent`): always for a target without the `cache` capability. */
export const purgeWithoutCacheIs501 = (): boolean => !offers('cache') || description.cacheSectionAbsent !== 'available';

// `gateway probe [-c FILE]` (catalog gateway/cli/probe-exit-codes, probe-reachability): an HTTP GET of every
// distinct upstream URL of the config, all at once, each allowed 5 s; any response counts as reachable. One
// line per upstream on stdout in config order; exit 1 when any is unreachable or the config is invalid.
import type { GatewayConfig } from '../config/gateway-config.ts';
import { send } from './admin-client.ts';
import type { CliIo } from './admin-commands.ts';
import { loadConfigArg } from './load-config-arg.ts';

export const PROBE_TIMEOUT_MS = 5000;

export interface ProbeResult {
  url: string;
  /** The HTTP status answered, or undefined when none came. */
  status: number | undefined;
  /** Why there was no answer. */
  error: string | undefined;
  ms: number;
}

/** Every target URL of every route, each once, in config order. */
export function upstreamUrls(config: GatewayConfig): string[] {
  return [...new Set(config.sites.flatMap((site) => site.routes.flatMap((route) => route.targets.map((target) => target.url))))];
}

export async function probeUrl(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const { status } = await send(new URL(url), { method: 'GET', timeoutMs, readBody: false });
    return { url, status, error: undefined, ms: ms() };
  } catch (err) {
    return { url, status: undefined, error: (err as Error).message, ms: ms() };
  }
}

export function probeLine(result: ProbeResult): string {
  return result.status === undefined ? `${result.url} unreachable: ${result.error}\n` : `${result.url} ok ${result.status} ${result.ms} ms\n`;
}

export async function runProbe(args: string[], io: CliIo): Promise<number> {
  const config = loadConfigArg('probe', args, io);
  if (config === undefined) return 1;
  const results = await Promise.all(upstreamUrls(config).map((url) => probeUrl(url)));
  for (const result of results) io.stdout(probeLine(result));
  return results.every((result) => result.status !== undefined) ? 0 : 1;
}

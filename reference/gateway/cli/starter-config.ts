// The starter config `gateway init` writes (catalog gateway/cli/init-behaviour): one site, one route `/` with
// one target, the admin API on loopback. YAML with comments pointing at the next steps, or plain JSON for a
// `.json` name; already in the form `gateway fmt` gives.
import { Document, isMap, isScalar, type Pair } from 'yaml';
import { formatYamlDocument } from '../config/format-config.ts';
import type { ConfigFormat } from '../config/read-config-file.ts';

export interface StarterAnswers {
  port: number;
  /** The route's one upstream. */
  target: string;
  /** host:port, or undefined for no admin API. */
  adminBind: string | undefined;
}

export const STARTER_DEFAULTS: Readonly<StarterAnswers> = Object.freeze({
  port: 8080,
  target: 'http://127.0.0.1:3000',
  adminBind: '127.0.0.1:2019',
});

const HEADER = [
  ' Gateway configuration, written by `gateway init`.',
  ' Check it with `gateway validate -c FILE`, tidy it with `gateway fmt -c FILE --write`; every key is',
  ' described in gateway-config.schema.json (point your editor at it). Durations are in milliseconds.',
].join('\n');

const COMMENTS: Record<string, string> = {
  admin: [
    ' The local admin API (gateway status, reload, upstreams, ...). Keep it on loopback. To require a',
    ' bearer token, add `token: $GATEWAY_ADMIN_TOKEN` and set that variable where the gateway runs.',
  ].join('\n'),
  sites: [
    ' Each site listens on a port (and may answer only one `host`). Routes send path prefixes to',
    ' upstream targets; add healthCheck, outlierDetection, retries, rateLimit, ipFilter, cache or metrics',
    ' sections to a site as needed.',
  ].join('\n'),
};

export function starterObject(answers: StarterAnswers): object {
  return {
    global: {
      ...(answers.adminBind === undefined ? {} : { admin: { bind: answers.adminBind } }),
      shutdownTimeoutSecs: 30,
    },
    sites: [
      {
        port: answers.port,
        routes: [{ path: '/', strategy: 'round-robin', targets: [{ url: answers.target, weight: 1 }] }],
      },
    ],
  };
}

export function starterConfig(answers: StarterAnswers, format: ConfigFormat): string {
  const object = starterObject(answers);
  if (format === 'json') return `${JSON.stringify(object, null, 2)}\n`;
  const doc = new Document(object);
  doc.commentBefore = HEADER;
  commentKeys(doc.contents);
  return formatYamlDocument(doc);
}

/** Puts each COMMENTS entry above its key, wherever the key is. */
function commentKeys(node: unknown): void {
  if (!isMap(node)) return;
  for (const pair of node.items as Pair[]) {
    if (isScalar(pair.key) && typeof pair.key.value === 'string' && COMMENTS[pair.key.value] !== undefined) {
      pair.key.commentBefore = COMMENTS[pair.key.value];
      pair.key.spaceBefore = pair.key.value === 'sites';
    }
    commentKeys(pair.value);
  }
}

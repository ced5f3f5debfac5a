// The metrics endpoint's body in the Prometheus text exposition format 0.0.4 (catalog
// gateway/data-plane/metrics-format): gateway-wide in-flight gauges, per-upstream request and response
// counters and state gauges.
import type { ServerResponse } from 'node:http';
import type { Traffic } from './proxy-exchange.ts';
import type { Upstream } from './upstream.ts';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const label = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

function family(lines: string[], name: string, type: 'counter' | 'gauge', help: string): void {
  lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
}

export function renderMetrics(upstreams: readonly Upstream[], traffic: Traffic, now: number): string {
  const lines: string[] = [];
  family(lines, 'gateway_inflight_requests', 'gauge', 'Data-plane requests being processed.');
  lines.push(`gateway_inflight_requests ${traffic.inflight}`);
  family(lines, 'gateway_retry_inflight_requests', 'gauge', 'Requests currently in a retry attempt.');
  lines.push(`gateway_retry_inflight_requests ${traffic.retryInflight}`);
  const each = (name: string, type: 'counter' | 'gauge', help: string, value: (u: Upstream) => number): void => {
    family(lines, name, type, help);
    for (const u of upstreams) lines.push(`${name}{upstream="${label(u.url)}"} ${value(u)}`);
  };
  each('gateway_upstream_requests_total', 'counter', 'Times the balancer picked the upstream.', (u) => u.selectedTotal);
  family(lines, 'gateway_upstream_responses_total', 'counter', 'Upstream responses by status class.');
  for (const u of upstreams) {
    for (const cls of ['2xx', '4xx', '5xx'] as const) {
      lines.push(`gateway_upstream_responses_total{upstream="${label(u.url)}",class="${cls}"} ${u.responses[cls]}`);
    }
  }
  each('gateway_upstream_inflight_requests', 'gauge', 'Requests in flight to the upstream.', (u) => u.active);
  each('gateway_upstream_healthy', 'gauge', '1 when the upstream passes its health checks.', (u) => (u.healthy ? 1 : 0));
  each('gateway_upstream_ejected', 'gauge', '1 while outlier detection ejects the upstream.', (u) =>
    u.state(now) === 'ejected' ? 1 : 0,
  );
  each('gateway_upstream_ewma_latency_ms', 'gauge', 'Moving average of the upstream latency.', (u) => u.ewma);
  return `${lines.join('\n')}\n`;
}

export function sendMetrics(res: ServerResponse, body: string): void {
  const buffer = Buffer.from(body);
  res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'content-length': buffer.length });
  res.end(res.req.method === 'HEAD' ? undefined : buffer);
}

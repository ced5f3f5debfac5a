// A tiny upstream the case controls, on a loopback port, for proxy checks. It answers with a JSON echo of
// what it received and its own name, so a case can tell which upstream served a request and what arrived.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type CaseContext, listenOnFreePort, releasePorts } from '../harness/index.ts';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Upstream {
  url: string;
  port: number;
  received: Received[];
}

export interface Echo {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startUpstream(
  c: CaseContext,
  name: string,
  respond?: (req: Received) => { status?: number; headers?: Record<string, string>; body?: string },
): Promise<Upstream> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const custom = respond?.(r);
      const echo: Echo = { upstream: name, ...r };
      res.writeHead(custom?.status ?? 200, { 'content-type': 'application/json', 'x-upstream': name, ...custom?.headers });
      res.end(custom?.body ?? JSON.stringify(echo));
    });
  });
  const port = await listenOnFreePort(server);
  c.defer(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    releasePorts([port]);
  });
  server.unref();
  return { url: `http://127.0.0.1:${port}`, port, received };
}

// A recording front of the admin API for the CLI cases: the CLI is pointed at it, it forwards every request
// to the gateway's admin server unchanged and records what arrived (method, path, headers, body), so a case
// sees the admin call a command made, and the command gets the gateway's real answer (recorded too).
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import { type CaseContext, listenOnFreePort, releasePorts } from '../harness/index.ts';

export interface AdminCallSeen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The gateway's answer body as forwarded, complete once the command has it all. */
  answer: string;
}

export interface AdminRecorder {
  address: string;
  calls: AdminCallSeen[];
}

/** A recorder in front of `admin` (host:port), on a free port, or on `port` when given (already claimed by
 * the case). Closed when the case ends. */
export async function adminRecorder(c: CaseContext, admin: string, port?: number): Promise<AdminRecorder> {
  const [host, targetPort] = [admin.slice(0, admin.lastIndexOf(':')), Number(admin.slice(admin.lastIndexOf(':') + 1))];
  const calls: AdminCallSeen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: AdminCallSeen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: body.toString('utf8'), answer: '' };
      calls.push(seen);
      const forward = request({ host, port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (chunk: Buffer) => (seen.answer += chunk.toString('utf8')));
        answer.pipe(res);
      });
      forward.on('error', (err) => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', message: `admin recorder: ${err.message}` }));
      });
      forward.end(body);
    });
  });
  let bound: number;
  if (port === undefined) bound = await listenOnFreePort(server);
  else {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    bound = port;
  }
  server.unref();
  c.defer(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (port === undefined) releasePorts([bound]);
  });
  c.note(`# an admin recorder at 127.0.0.1:${bound} forwards to ${admin}`);
  return { address: `127.0.0.1:${bound}`, calls };
}

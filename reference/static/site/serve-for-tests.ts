// For unit tests of feature handlers: one handler on a real loopback port, with a 404 behind it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import polka from 'polka';
import type { Handler } from './handler.ts';

export async function serve(handler: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const notFound: Handler = (_req, res) => {
    res.statusCode = 404;
    res.end('Not Found');
  };
  const app = polka({ onNoMatch: notFound }).use(handler);
  await new Promise<void>((done) => app.listen(0, '127.0.0.1', done));
  const server = app.server as Server;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

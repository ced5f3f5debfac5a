// Loopback listening for the demos: a server on a port (0 = any free one), and a free port for a process
// the demo starts.
import { createServer, type Server } from 'node:http';

export function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  server.close();
  return port;
}

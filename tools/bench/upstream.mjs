// The benchmark's upstream: answers every request with a small JSON body (keep-alive).
import { createServer } from 'node:http';

const body = JSON.stringify({ id: 1, name: 'item', tags: ['a', 'b'] });
createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.argv[2]), '127.0.0.1');

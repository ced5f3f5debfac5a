// The benchmark's floor of the gateway's own stack: node:http in front, undici's keep-alive Pool behind,
// and nothing between them (no routing, balancing, limits, metrics, header rules or error handling beyond a
// 502). What the gateway costs above this line is its features; below it, Node's HTTP server and undici.
// Usage: node undici-floor.mjs <port> <upstream port>
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [port, upstream] = process.argv.slice(2).map(Number);
const pool = new Pool(`http://127.0.0.1:${upstream}`, { connections: 256 });
createServer((req, res) => {
  pool.dispatch(
    { path: req.url, method: req.method, headers: req.rawHeaders, body: null },
    {
      onRequestStart() {},
      onResponseStart(_controller, status, headers) {
        res.writeHead(status, headers);
      },
      onResponseData(_controller, chunk) {
        res.write(chunk);
      },
      onResponseEnd() {
        res.end();
      },
      onResponseError() {
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      },
    },
  );
}).listen(port, '127.0.0.1');

// A peer of the gateway benchmark: node:http in front, undici's keep-alive Pool behind, and nothing between
// them (no routing, balancing, limits, metrics, header rules or error handling beyond a 502): the stack the
// gateway ran on before it had its own upstream client, and what that client is measured against.
// Several upstreams are taken in turn, one pool each, as the gateway's round-robin does (two upstreams cost
// a proxy on the shared core about 5 µs a request more than one: every peer gets the same upstreams).
// Usage: node undici-proxy.mjs <port> <upstream port>...
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [port, ...upstreams] = process.argv.slice(2).map(Number);
const pools = upstreams.map((upstream) => new Pool(`http://127.0.0.1:${upstream}`, { connections: 256 }));
let turn = 0;
createServer((req, res) => {
  pools[turn++ % pools.length].dispatch(
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

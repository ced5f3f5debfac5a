// The benchmark's plain Node proxy: http-proxy with a keep-alive agent and nothing else, the floor a
// Node reverse proxy pays. Several upstreams are taken in turn (as the gateway's round-robin and nginx do:
// the same upstream traffic for every proxy compared). Usage: node bare-proxy.mjs <port> <upstream port>...
import { Agent, createServer } from 'node:http';
import httpProxy from 'http-proxy';

const [port, ...upstreams] = process.argv.slice(2).map(Number);
const targets = upstreams.map((upstream) => `http://127.0.0.1:${upstream}`);
const proxy = httpProxy.createProxyServer({ agent: new Agent({ keepAlive: true }) });
proxy.on('error', (_err, _req, res) => res.end());
let turn = 0;
createServer((req, res) => proxy.web(req, res, { target: targets[turn++ % targets.length] })).listen(port, '127.0.0.1');

// The benchmark's plain Node proxy: http-proxy with a keep-alive agent and nothing else, the floor a
// Node reverse proxy pays. Usage: node bare-proxy.mjs <port> <upstream port>
import { Agent, createServer } from 'node:http';
import httpProxy from 'http-proxy';

const [port, upstream] = process.argv.slice(2).map(Number);
const proxy = httpProxy.createProxyServer({ target: `http://127.0.0.1:${upstream}`, agent: new Agent({ keepAlive: true }) });
proxy.on('error', (_err, _req, res) => res.end());
createServer((req, res) => proxy.web(req, res)).listen(port, '127.0.0.1');

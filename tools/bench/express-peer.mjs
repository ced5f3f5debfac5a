// The benchmark's "what users run today" peer: an Express app serving a folder with serve-static and
// forwarding /api to the upstream with http-proxy-middleware, written as their guides show it, defaults
// left on. Usage: node express-peer.mjs <port> <folder> <upstream port>
import express from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import serveStatic from 'serve-static';

const [port, folder, upstream] = process.argv.slice(2);
const app = express();
app.use('/api', createProxyMiddleware({ target: `http://127.0.0.1:${upstream}/api`, changeOrigin: true }));
app.use(serveStatic(folder));
app.listen(Number(port), '127.0.0.1');

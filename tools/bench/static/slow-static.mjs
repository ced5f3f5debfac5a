// A slow static server, for timing the static suite against a slow third-party implementation: the reference
// bundle, started SLOW_START_MS late (default 1000: a heavier runtime's start) and answering every request
// SLOW_ANSWER_MS late (default 10), on HTTP and HTTPS alike. Right in every other way, so every case passes.
// Usage: node slow-static.mjs <the reference's arguments>
import http from 'node:http';
import https from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const START_MS = Number(process.env.SLOW_START_MS ?? 1000);
const ANSWER_MS = Number(process.env.SLOW_ANSWER_MS ?? 10);
const BUNDLE = join(dirname(fileURLToPath(import.meta.url)), '../../../.cache/reference/static.mjs');

for (const Server of [http.Server, https.Server]) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, ...args) {
    if (event !== 'request') return emit.call(this, event, ...args);
    setTimeout(() => emit.call(this, event, ...args), ANSWER_MS);
    return true;
  };
}
await new Promise((resolve) => setTimeout(resolve, START_MS));
await import(pathToFileURL(BUNDLE).href);

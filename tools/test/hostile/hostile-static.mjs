// A hostile static/proxy server, for proving that a run cleans up after itself: it ignores every start-up
// error (any configuration, any flag: it serves), every signal but SIGKILL, and its standard input; it
// listens on every port its configuration names (and PORT); and it leaves two processes of its own behind
// it, one in its process group and one that left the group (a daemon of its own session). Each answers any
// request with 200.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGPIPE', 'SIGTSTP'];
const STUBBORN = `for (const s of ${JSON.stringify(SIGNALS)}) process.on(s, () => {}); setInterval(() => {}, 1 << 30);`;

for (const signal of SIGNALS) process.on(signal, () => {});

/** Every integer `port` or `redirect` of the configuration in the working directory, however wrong it is. */
function configuredPorts() {
  const ports = new Set();
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if ((key === 'port' || key === 'redirect') && Number.isInteger(v) && v > 0 && v < 65536) ports.add(v);
        else walk(v);
      }
    }
  };
  try {
    walk(JSON.parse(readFileSync('server-config.json', 'utf8')));
  } catch {
    // No file, or not JSON: serve anyway.
  }
  if (process.env.PORT) ports.add(Number(process.env.PORT));
  return ports;
}

for (const port of configuredPorts()) {
  const server = createServer((req, res) => {
    req.resume();
    res.end('hostile\n');
  });
  server.on('error', () => {}); // taken: never mind
  server.listen(port, '127.0.0.1');
}

// One child in the group, and one in a session of its own (out of reach of a process-group kill).
spawn(process.execPath, ['-e', STUBBORN], { stdio: 'ignore' });
spawn(process.execPath, ['-e', STUBBORN], { stdio: 'ignore', detached: true }).unref();
process.stdin.resume?.();
setInterval(() => {}, 1 << 30);

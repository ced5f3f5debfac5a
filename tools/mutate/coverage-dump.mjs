// Loaded into each target process of a mutation dry run (NODE_OPTIONS=--import): when the process ends it
// writes the mutants its instrumented code reached (Stryker's `__stryker__.mutantCoverage`) to
// $MUTATE_COVERAGE_DIR/<pid>.json. A process with no instrumented code writes nothing. A signal that would
// end the process ends it as before: the handler writes, then raises the signal again unless the target
// handles it itself.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.MUTATE_COVERAGE_DIR;
let written = false;

function write() {
  const coverage = globalThis.__stryker__?.mutantCoverage;
  if (!dir || written || !coverage) return;
  written = true;
  const reached = { ...coverage.static };
  for (const perTest of Object.values(coverage.perTest ?? {})) Object.assign(reached, perTest);
  try {
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(Object.keys(reached)));
  } catch {
    // The run's folder is gone (the run ended first): nothing to tell.
  }
}

if (dir) {
  process.on('exit', write);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    const onSignal = () => {
      write();
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}

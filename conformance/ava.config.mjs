// ava settings for the conformance suites (the runner passes the files of one surface).
// ava's own timeout is set out of reach: its TAP reporter crashes when it fires, and the harness enforces
// a per-case time limit itself (conformance/harness/check.ts).
export default {
  files: ['conformance/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  timeout: '30m',
  // Cases mostly wait on their targets (processes, windows, timers): more files in flight than cores
  // keeps both cores busy.
  concurrency: 6,
};

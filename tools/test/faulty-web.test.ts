// The translate-web suite can fail: the faulty web gateway (tools/test/faulty/faulty-web.ts, the reference
// gateway with faults injected) breaks documented rules, and for each set of faults exactly their clauses
// must go red - no more (no collateral), no fewer (no blind spot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { WEB_FAULTS, type WebFault } from './faulty/faulty-web-faults.ts';
import { redClauses, redMismatch } from './red-clauses.ts';
import { runTool, tempDir } from './run-cli.ts';

interface FaultRun {
  faults: WebFault[];
  selection: string[];
  expectedRed: string[];
  /** Clauses of the reference's choices the faults break (reported, never failing the run). */
  expectedInformational?: string[];
  /** Cases that must end not-applicable (a must-case whose precondition the fault removes). */
  notApplicable?: string[];
  /** Cases that must end `error`: the fault takes away what they read (their clause is judged elsewhere). */
  errors?: string[];
}

const TARGET = 'translate-web=cmd:node --import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/faulty/faulty-web.ts';
// The page's forms are the reference's: the faulty gateway serves the reference page.
const DESCRIPTION = 'translate-web=conformance/translate-web/reference-target/description.json';

const RUNS: FaultRun[] = [
  {
    faults: ['port-default-8080', 'grpc-url-default-5000', 'detect-calls-translate', 'synthesize-twice', 'localize-echo'],
    selection: ['translate-web/env/port*/**', 'translate-web/env/grpc-url*/**', 'translate-web/routes/*/calls-*', 'translate-web/deadlines/detect-30s/**'],
    expectedRed: [
      // port-default-8080, grpc-url-default-5000
      'translate-web/env/port-default',
      'translate-web/env/grpc-url-default',
      // detect-calls-translate
      'translate-web/routes/detect',
      // synthesize-twice
      'translate-web/routes/synthesize',
      // localize-echo
      'translate-web/routes/localize',
    ],
    // detect-calls-translate: no DetectLanguage call, so no deadline to read (routes/detect judges the call).
    errors: ['translate-web/deadlines/detect-30s/grpc-timeout-30s-with-and-without-the-variables'],
  },
  {
    faults: ['fixed-deadline-10s', 'localize-uses-translate-variable', 'transcribe-seconds', 'unset-60s'],
    selection: ['translate-web/deadlines/**'],
    expectedRed: [
      // fixed-deadline-10s
      'translate-web/deadlines/capabilities-30s',
      'translate-web/deadlines/detect-30s',
      'translate-web/deadlines/synthesize-30s',
      // localize-uses-translate-variable
      'translate-web/deadlines/localize-env',
      // transcribe-seconds (both routes of the variable)
      'translate-web/deadlines/transcribe-env',
      'translate-web/deadlines/translate-audio-env',
      // unset-60s
      'translate-web/deadlines/unset-means-none',
    ],
  },
  {
    faults: ['detect-uses-translate-variable', 'translate-audio-no-deadline', 'client-no-retry'],
    selection: ['translate-web/deadlines/**', 'translate-web/client/retry-statuses/**'],
    expectedRed: ['translate-web/deadlines/detect-30s', 'translate-web/deadlines/translate-audio-env', 'translate-web/client/retry-statuses'],
  },
  {
    faults: ['client-retries-503-only', 'unavailable-as-500'],
    selection: ['translate-web/client/**', 'translate-web/errors/**'],
    expectedRed: ['translate-web/client/retry-statuses'],
    expectedInformational: ['translate-web/errors/service-unavailable', 'translate-web/errors/status-mapping'],
    // A gateway answering 500 for an unavailable service leaves the client nothing to retry.
    notApplicable: ['translate-web/client/retry-statuses/gateway-fails-twice-then-answers'],
  },
  {
    faults: ['capabilities-without-call', 'translate-echo', 'transcribe-calls-translate-audio', 'translate-audio-twice'],
    selection: ['translate-web/routes/*/calls-*'],
    expectedRed: ['translate-web/routes/capabilities', 'translate-web/routes/translate', 'translate-web/routes/transcribe', 'translate-web/routes/translate-audio'],
  },
  // Each on its own: an ignored PORT or service address fails every case that starts the gateway.
  { faults: ['port-ignored'], selection: ['translate-web/env/port/**'], expectedRed: ['translate-web/env/port'] },
  { faults: ['grpc-url-ignored'], selection: ['translate-web/env/grpc-url/**'], expectedRed: ['translate-web/env/grpc-url'] },
];

for (const { faults, selection, expectedRed, expectedInformational = [], notApplicable = [], errors = [] } of RUNS) {
  test(`a faulty web gateway (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const run = await runTool(
      'conform',
      ['--surface', 'translate-web', '--target', TARGET, '--describe', DESCRIPTION, ...selection.flatMap((g) => ['--only', g]), '--report-dir', reports],
      { FAULTS: faults.join(',') },
    );
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    t.is(run.code, 1, run.stderr);
    t.deepEqual(redClauses(report), [...expectedRed].sort(), redMismatch(report, expectedRed));
    t.deepEqual([...new Set(report.results.filter((r) => r.outcome === 'informational').map((r) => r.clause))].sort(), expectedInformational);
    t.deepEqual(
      report.results.filter((r) => r.outcome === 'not-applicable').map((r) => r.id),
      notApplicable,
    );
    const errored = report.results.filter((r) => r.outcome === 'error');
    t.deepEqual(
      errored.map((r) => r.id),
      errors,
      errored.map((r) => `${r.id}: ${r.message.split('\n')[0]}`).join('\n'),
    );
    t.regex(run.stdout, /FAIL translate-web\/\S+\n {2}clause translate-web\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty web gateway is exercised', (t) => {
  t.deepEqual(RUNS.flatMap((r) => r.faults).sort(), (Object.keys(WEB_FAULTS) as WebFault[]).sort());
});

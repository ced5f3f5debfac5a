// The static suite can fail: the faulty target (tools/test/faulty) breaks documented behaviours, and for
// each set of faults exactly their clauses must go red - no more (no collateral), no fewer (no blind spot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { FAULTS, type Fault } from './faulty/faults.ts';
import { redClauses, redMismatch } from './red-clauses.ts';
import { runTool, tempDir } from './run-cli.ts';

interface FaultRun {
  faults: Fault[];
  selection: string[];
  expectedRed: string[];
}

const RUNS: FaultRun[] = [
  {
    faults: ['health-body', 'redirect-status', 'rate-limit', 'traversal', 'unhandled-accept', 'drop-custom-headers'],
    selection: [
      'static/health/**',
      'static/redirects/**',
      'static/rate-limit/**',
      'static/folders/confined-to-folders/**',
      'static/unhandled/key-*/**',
      'static/headers/**',
    ],
    expectedRed: [
      // health-body
      'static/health/body-status',
      'static/health/body-uptime',
      'static/health/custom-path',
      'static/health/default-path',
      'static/health/exempt-basic-auth',
      // redirect-status
      'static/redirects/default-status-301',
      'static/redirects/status-301',
      // rate-limit
      'static/rate-limit/custom-limit',
      'static/rate-limit/custom-message',
      'static/rate-limit/custom-window',
      'static/rate-limit/default-limit-5',
      'static/rate-limit/default-window-60000',
      'static/rate-limit/per-ip',
      'static/rate-limit/status-429',
      // traversal
      'static/folders/confined-to-folders',
      // unhandled-accept
      'static/unhandled/key-html',
      'static/unhandled/key-json',
      'static/unhandled/key-star',
      'static/unhandled/key-xml',
      // drop-custom-headers
      'static/headers/cgi-and-upload-responses',
      'static/headers/proxied-responses',
      'static/headers/static-responses',
      'static/headers/unhandled-responses',
    ],
  },
  {
    // redirect-default-302 beside the order cases (rules without a status there too): one red clause.
    // unhandled-410 beside the cases of paths falling through (health, hot-reload, proxy, order, rate limits,
    // custom headers on the built-in answer): one red clause, static/unhandled/default-404.
    faults: ['strip-response-time', 'strip-security-headers', 'strip-cors', 'no-compression', 'help-fails', 'redirect-default-302', 'unhandled-410'],
    selection: [
      'static/response-time/**',
      'static/helmet/**',
      'static/cors/**',
      'static/compression/**',
      'static/order/**',
      'static/cli/help*/**',
      'static/redirects/**',
      // unhandled-410 (not per-ip: the faulty front relays every client from one address)
      'static/unhandled/default-404/**',
      'static/health/absent-or-false/**',
      'static/health/custom-path/**',
      'static/hot-reload/off-when-unset/**',
      'static/hot-reload/development-only/**',
      'static/proxy/non-matching-not-forwarded/**',
      'static/headers/unhandled-responses/**',
      'static/rate-limit/default-limit-5/**',
      'static/rate-limit/custom-limit/**',
      'static/rate-limit/custom-window/**',
    ],
    expectedRed: [
      'static/cli/help',
      'static/compression/options-object',
      'static/compression/true-enables',
      'static/cors/origin-option',
      'static/cors/true-enables',
      'static/helmet/options-object',
      'static/helmet/true-adds-headers',
      // the order pairs observed through these headers
      'static/order/cors-before-basic-auth',
      'static/order/helmet-before-favicon',
      'static/order/response-time-before-cors',
      // redirect-default-302
      'static/redirects/default-status-301',
      'static/response-time/digits',
      'static/response-time/suffix',
      'static/response-time/true-adds-header',
      // unhandled-410
      'static/unhandled/default-404',
    ],
  },
];

for (const { faults, selection, expectedRed } of RUNS) {
  test(`a faulty static server (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const target = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/faulty/faulty-static.mjs')}`;
    const run = await runTool(
      'conform',
      ['--target', target, ...selection.flatMap((g) => ['--only', g]), '--report-dir', reports],
      { FAULTS: faults.join(',') },
    );
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    t.is(run.code, 1);
    t.deepEqual(redClauses(report), [...expectedRed].sort(), redMismatch(report, expectedRed));
    t.regex(run.stdout, /FAIL static\/\S+\n {2}clause static\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty server is exercised', (t) => {
  t.deepEqual(RUNS.flatMap((r) => r.faults).sort(), (Object.keys(FAULTS) as Fault[]).sort());
});

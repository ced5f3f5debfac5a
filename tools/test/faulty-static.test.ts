// The static suite can fail: the faulty target (tools/test/faulty) breaks six documented behaviours, and
// exactly the clauses of those behaviours must go red - no more (no collateral), no fewer (no blind spot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { FAULTS } from './faulty/faults.ts';
import { runTool, tempDir } from './run-cli.ts';

const SELECTION = [
  'static/health/**',
  'static/redirects/**',
  'static/rate-limit/**',
  'static/folders/confined-to-folders/**',
  'static/unhandled/key-*/**',
  'static/headers/**',
];

const EXPECTED_RED = [
  // health-body
  'static/health/body-status',
  'static/health/body-uptime',
  'static/health/custom-path',
  'static/health/default-path',
  'static/health/exempt-basic-auth',
  // redirect-status
  'static/redirects/array-form',
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
];

test('a faulty static server turns exactly the expected clauses red', async (t) => {
  const reports = tempDir();
  const target = `static=cmd:node ${join(PROJECT_ROOT, 'tools/test/faulty/faulty-static.mjs')}`;
  const run = await runTool(
    'conform',
    ['--target', target, ...SELECTION.flatMap((g) => ['--only', g]), '--report-dir', reports],
    { FAULTS: Object.keys(FAULTS).join(',') },
  );
  const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
  const red = [...new Set(report.results.filter((r) => r.outcome === 'fail').map((r) => r.clause))].sort();
  t.is(run.code, 1);
  t.deepEqual(red, [...EXPECTED_RED].sort());
  t.regex(run.stdout, /FAIL static\/health\/body-status\/[\s\S]*clause static\/health\/body-status \(must\)[\s\S]*reproduce:[\s\S]*curl /);
});

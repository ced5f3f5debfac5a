// The translate-tools suite can fail: the faulty tool server (tools/test/faulty/faulty-tools.ts, a stdio
// front over the reference) breaks documented rules, and for each set of faults exactly their clauses must
// go red - no more (no collateral), no fewer (no blind spot). Faults of informational clauses cannot fail a
// run: the clauses they turn `informational` are asserted as exactly as the red ones.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { JsonReport } from '../conform/report-json.ts';
import { TOOLS_FAULTS, type ToolsFault } from './faulty/faulty-tools-faults.ts';
import { clausesWith, redClauses, redMismatch } from './red-clauses.ts';
import { runTool, tempDir } from './run-cli.ts';

interface FaultRun {
  faults: ToolsFault[];
  selection: string[];
  expectedRed: string[];
  expectedInformational?: string[];
  /** Cases that must end in error: where a fault departs from a clause another case relies on, that case
   * cannot judge its own (and says which clause it could not get past). */
  expectedErrors?: string[];
  /** Cases that must be red too: where two faults of a set turn the same clause red, one case each shows
   * that each fault is seen on its own. */
  witnesses?: string[];
  /** Run with no other set beside it (before the others): every run loads the whole suite, and two cores
   * shared by several runs starting tool servers (two processes each, under tsx) can take longer than the
   * suite's 30-second limit for a server to initialise. The heaviest set (the calls) runs beside the one
   * that mostly waits (answers-on-stderr: 15 s for a line that never comes). */
  alone?: true;
}

// The suite passes the tool server only the variables an MCP client passes on (not the runner's FAULTS), so
// the faults go on the command line; the target starts in a fresh directory, where a bare `--import tsx`
// would not resolve: name tsx's loader.
const target = (faults: ToolsFault[]): string =>
  `translate-tools=cmd:env FAULTS=${faults.join(',')} node --import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/faulty/faulty-tools.ts`;

const RUNS: FaultRun[] = [
  {
    // The listing, and the faults no other case's calls could survive (every call needs the key).
    faults: [
      'extra-tool',
      'text-format-unlisted',
      'text-target-optional',
      'detect-format-required',
      'localization-context-listed',
      'localization-existing-object',
      'localization-source-optional',
      'transcribe-path-renamed',
      'capabilities-param',
      'api-key-required',
      'stdout-banner',
    ],
    alone: true,
    selection: [
      'translate-tools/tools/exactly-five/**',
      'translate-tools/tools/extra-parameters/**',
      'translate-tools/*/parameters/**',
      'translate-tools/*/required/**',
      'translate-tools/get-capabilities/no-parameters/**',
      'translate-tools/tools/descriptions/**',
      'translate-tools/auth/**',
      'translate-tools/tools/stdio-server/**',
      'translate-tools/tools/stdout-protocol-only/every-line-*',
    ],
    expectedRed: [
      // text-format-unlisted
      'translate-tools/translate-text/parameters',
      // text-target-optional
      'translate-tools/translate-text/required',
      // detect-format-required
      'translate-tools/detect-language/parameters',
      // localization-existing-object
      'translate-tools/translate-localization/parameters',
      // localization-source-optional
      'translate-tools/translate-localization/required',
      // transcribe-path-renamed (its parameters clause also names the required one)
      'translate-tools/transcribe-audio/parameters',
      // capabilities-param
      'translate-tools/get-capabilities/no-parameters',
      // api-key-required
      'translate-tools/auth/no-api-key',
    ],
    expectedInformational: [
      // stdout-banner
      'translate-tools/tools/stdout-protocol-only',
      // extra-tool: further tools are allowed, the reference lists exactly five
      'translate-tools/tools/exactly-five',
      // localization-context-listed (and capabilities-param's model, transcribe-path-renamed's path): further
      // optional parameters are allowed, the reference offers none
      'translate-tools/tools/extra-parameters',
    ],
  },
  {
    // What the calls send and answer, against the service and against recording stubs.
    faults: [
      'source-default-en',
      'text-format-default-native',
      'model-default-apertium',
      'model-not-copied',
      'detect-format-default-native',
      'localization-auto-guessed',
      'audio-first-chunk',
      'relative-path-accepted',
      'stt-from-tts',
      'probability-percent',
      'default-port-50051',
    ],
    // Only the cases of the clauses in question and of clauses near them: every other case would start more
    // servers and prove nothing more (a clause already red cannot show collateral).
    selection: [
      'translate-tools/translate-text/source-default-auto/**',
      'translate-tools/translate-text/format-default/**',
      'translate-tools/translate-text/model-default/**',
      'translate-tools/detect-language/format-default/**',
      'translate-tools/translate-localization/explicit-bcp47-languages/**',
      'translate-tools/transcribe-audio/reads-file/**',
      'translate-tools/transcribe-audio/relative-path/**',
      'translate-tools/get-capabilities/result/**',
      'translate-tools/tools/wraps-rpcs/translate-text-calls-*',
      'translate-tools/tools/wraps-rpcs/detect-language-answers-*',
      'translate-tools/env/grpc-url-default/**',
    ],
    expectedRed: [
      // source-default-en
      'translate-tools/translate-text/source-default-auto',
      // text-format-default-native
      'translate-tools/translate-text/format-default',
      // model-default-apertium
      'translate-tools/translate-text/model-default',
      // model-not-copied, probability-percent
      'translate-tools/tools/wraps-rpcs',
      // detect-format-default-native
      'translate-tools/detect-language/format-default',
      // localization-auto-guessed
      'translate-tools/translate-localization/explicit-bcp47-languages',
      // audio-first-chunk
      'translate-tools/transcribe-audio/reads-file',
      // stt-from-tts (the reference service has both on: the stub without STT shows it)
      'translate-tools/get-capabilities/result',
      // default-port-50051
      'translate-tools/env/grpc-url-default',
    ],
    // relative-path-accepted
    expectedInformational: ['translate-tools/transcribe-audio/relative-path'],
    witnesses: [
      'translate-tools/tools/wraps-rpcs/translate-text-calls-translate-text-with-its-arguments',
      'translate-tools/tools/wraps-rpcs/detect-language-answers-as-the-rpc',
    ],
  },
  {
    // No other fault beside grpc-url-ignored that needs a call: no call reaches the service any more. A tool
    // left out of the listing would leave its own listing cases unable to judge: only the listing case runs.
    faults: ['grpc-url-ignored', 'detect-unlisted'],
    alone: true,
    selection: ['translate-tools/env/grpc-url/**', 'translate-tools/tools/five-listed/**'],
    expectedRed: ['translate-tools/env/grpc-url', 'translate-tools/tools/five-listed'],
  },
  {
    // One departure of reads-file, one red clause: the cases whose call needs the file read (the call with no
    // credential, the fields of the call, the omitted hint) cannot judge theirs.
    faults: ['home-files-only'],
    selection: [
      'translate-tools/transcribe-audio/reads-file/**',
      'translate-tools/transcribe-audio/language-default/omitted-sent-empty',
      'translate-tools/auth/**',
      'translate-tools/tools/wraps-rpcs/transcribe-audio-*',
    ],
    expectedRed: ['translate-tools/transcribe-audio/reads-file'],
    expectedErrors: [
      'translate-tools/auth/no-api-key/serves-with-no-credential',
      'translate-tools/tools/wraps-rpcs/transcribe-audio-calls-transcribe-audio-with-its-arguments',
      'translate-tools/transcribe-audio/language-default/omitted-sent-empty',
    ],
  },
  {
    // No other fault beside it: no client can even initialise.
    faults: ['answers-on-stderr'],
    selection: ['translate-tools/tools/stdio-server/**'],
    expectedRed: ['translate-tools/tools/stdio-server'],
  },
];

for (const { faults, selection, expectedRed, expectedInformational = [], expectedErrors = [], witnesses = [], alone } of RUNS) {
  (alone ? test.serial : test)(`a faulty tool server (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const run = await runTool('conform', [
      '--surface',
      'translate-tools',
      '--target',
      target(faults),
      ...selection.flatMap((g) => ['--only', g]),
      '--report-dir',
      reports,
    ]);
    t.is(run.code, 1, `${run.stderr}\n${run.stdout.slice(-3000)}`);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    t.deepEqual(redClauses(report), [...expectedRed].sort(), redMismatch(report, expectedRed));
    t.deepEqual(clausesWith(report, 'informational'), [...expectedInformational].sort());
    t.deepEqual(clausesWith(report, 'not-applicable'), [], 'a case the faults were meant for did not run');
    // A fault must show as a failure of its clause, not as a case that could not judge - except the cases that
    // rely on the clause it departs from.
    const errors = report.results.filter((r) => r.outcome === 'error');
    t.deepEqual(
      errors.map((r) => r.id).sort(),
      [...expectedErrors].sort(),
      `cases that ended in error:\n${errors.map((r) => `${r.id}: ${r.message.split('\n')[0]}`).join('\n')}`,
    );
    const red = new Set(report.results.filter((r) => r.outcome === 'fail').map((r) => r.id));
    t.deepEqual(
      witnesses.filter((id) => !red.has(id)),
      [],
      'witness cases not red',
    );
    t.regex(run.stdout, /FAIL translate-tools\/\S+\n {2}clause translate-tools\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty tool server is exercised', (t) => {
  t.deepEqual(RUNS.flatMap((r) => r.faults).sort(), (Object.keys(TOOLS_FAULTS) as ToolsFault[]).sort());
});

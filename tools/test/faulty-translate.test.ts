// The translate suite can fail: the faulty translation service (tools/test/faulty/faulty-translate.ts, a
// gRPC front over the reference) breaks documented rules, and for each set of faults exactly their
// clauses must go red - no more (no collateral), no fewer (no blind spot).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { TRANSLATE_FAULTS, type TranslateFault } from './faulty/faulty-translate-faults.ts';
import { redClauses, redMismatch } from './red-clauses.ts';
import { runTool, tempDir } from './run-cli.ts';

interface FaultRun {
  faults: TranslateFault[];
  selection: string[];
  expectedRed: string[];
  /** Run with no other set beside it (before the others): its cases are CPU-bound, and their 30 s call
   * deadlines and the model lifetime's timing do not hold on two cores shared with another run. */
  alone?: true;
}

// The target runs in a fresh directory, where a bare `--import tsx` would not resolve: name tsx's loader.
const TARGET = 'translate=cmd:node --import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/faulty/faulty-translate.ts --port {port}';
// The front relays to a reference with the reference target's configuration: the same facts hold.
const DESCRIPTION = join(PROJECT_ROOT, 'conformance/translate/reference-target/description.json');

// Every speech case but the two informational model-lifetime ones, which cannot go red and cost a target
// each (one a 17-second recognition).
const SPEECH_CASES = [
  'translate/transcribe/**',
  'translate/synthesize/**',
  'translate/translate-audio/**',
  'translate/models/lazy-load/**',
  'translate/models/ttl-unload/**',
  'translate/config/model-ttl-minutes/**',
  'translate/limits/stt-resampling/**',
];

const RUNS: FaultRun[] = [
  {
    faults: ['flores200-accepted', 'not-allowed-invalid', 'unknown-model-default', 'precondition-internal', 'capabilities-field-1', 'audio-limit-below-50-mb'],
    selection: [
      'translate/language-format/flores200-rejected/**',
      'translate/errors/model-not-allowed/**',
      'translate/errors/unknown-model/**',
      'translate/errors/unknown-before-not-allowed/**',
      'translate/errors/model-file-missing/**',
      'translate/errors/redirect-cycle/**',
      'translate/errors/*-without-*/**',
      'translate/errors/unsupported-language/**',
      'translate/errors/unsupported-language-format/every-rpc',
      'translate/capabilities/**',
      'translate/versioning/**',
      'translate/proto/get-capabilities-response/**',
      'translate/limits/audio-size/**',
    ],
    expectedRed: [
      // flores200-accepted
      'translate/language-format/flores200-rejected',
      // not-allowed-invalid
      'translate/errors/model-not-allowed',
      // unknown-model-default
      'translate/errors/unknown-model',
      // precondition-internal (stt-available: TranscribeAudio is checked to be refused with FAILED_PRECONDITION
      // on the stt-unconfigured variant)
      'translate/capabilities/stt-available',
      'translate/errors/redirect-cycle',
      'translate/errors/synthesize-without-voice',
      'translate/errors/transcribe-without-stt',
      'translate/errors/translate-audio-without-speech',
      // capabilities-field-1
      'translate/proto/get-capabilities-response',
      'translate/versioning/reserved-supported-languages',
      // audio-limit-below-50-mb
      'translate/limits/audio-size',
    ],
  },
  {
    faults: [
      'detected-always',
      'model-used-empty',
      'localization-skips-arrays',
      'count-includes-reused',
      'probability-out-of-range',
      'native-label-bcp47',
    ],
    selection: [
      'translate/translate-text/rpc/**',
      'translate/translate-text/auto-detect-source/**',
      'translate/translate-text/detected-language-only-on-auto/**',
      'translate/translate-text/detected-language-format/**',
      'translate/translate-text/default-model/**',
      'translate/translate-text/model-used/**',
      'translate/localization/rpc/returns-translated-json',
      'translate/localization/strings-in-arrays/arrays-and-nested-arrays',
      'translate/localization/structure-preserved/**',
      'translate/localization/non-strings-unchanged/**',
      'translate/localization/strings-translated-count/counts-non-blank-leaves',
      'translate/localization/existing-translation-reused/**',
      'translate/localization/reused-not-counted/count-excludes-reused',
      'translate/detect/rpc/detects-sample-languages',
      'translate/detect/language-in-format/bcp47-tags',
      'translate/detect/probability-range/samples',
      'translate/detect/native-raw-label/**',
    ],
    expectedRed: [
      // detected-always
      'translate/translate-text/detected-language-only-on-auto',
      // model-used-empty
      'translate/translate-text/model-used',
      // localization-skips-arrays (the count case's document has a string in an array)
      'translate/localization/strings-in-arrays',
      'translate/localization/strings-translated-count',
      // count-includes-reused
      'translate/localization/reused-not-counted',
      // probability-out-of-range
      'translate/detect/probability-range',
      // native-label-bcp47 (seen through the labels the description declares)
      'translate/detect/native-raw-label',
    ],
  },
  {
    faults: [
      'wav-sizes-wrong',
      'speed-ignored',
      'speaker-ignored',
      'segment-times-ms',
      'detected-language-raw',
      'source-auto-refused',
      'models-never-unloaded',
    ],
    selection: SPEECH_CASES,
    alone: true,
    expectedRed: [
      // wav-sizes-wrong
      'translate/synthesize/wav-output',
      'translate/translate-audio/wav-output',
      // speed-ignored
      'translate/synthesize/speed-multiplier',
      // speaker-ignored
      'translate/synthesize/voice-speaker',
      'translate/translate-audio/target-voice',
      // segment-times-ms (times past the input's duration)
      'translate/transcribe/segment-times',
      'translate/limits/stt-resampling',
      // detected-language-raw
      'translate/transcribe/detected-language-format',
      // source-auto-refused
      'translate/translate-audio/source-auto',
      // models-never-unloaded
      'translate/models/ttl-unload',
      'translate/config/model-ttl-minutes',
    ],
  },
  {
    faults: ['sample-rate-mismatch', 'full-text-no-spaces', 'stereo-refused', 'translate-audio-other-model', 'models-loaded-eagerly'],
    selection: SPEECH_CASES,
    alone: true,
    expectedRed: [
      // sample-rate-mismatch (wav-output also states the rate for both RPCs)
      'translate/synthesize/sample-rate',
      'translate/synthesize/wav-output',
      'translate/translate-audio/wav-output',
      // full-text-no-spaces
      'translate/transcribe/full-text-join',
      // stereo-refused (TranscribeAudio and TranslateAudio)
      'translate/transcribe/any-wav-layout',
      'translate/limits/stt-resampling',
      // translate-audio-other-model (the native-codes case compares with the default model too)
      'translate/translate-audio/pipeline',
      'translate/translate-audio/format-applies-to-both',
      // models-loaded-eagerly (the log then holds loads no call caused, and an STT model never released)
      'translate/models/lazy-load',
      'translate/models/ttl-unload',
      'translate/config/model-ttl-minutes',
    ],
  },
];

for (const { faults, selection, expectedRed, alone } of RUNS) {
  (alone ? test.serial : test)(`a faulty translation service (${faults.join(', ')}) turns exactly the expected clauses red`, async (t) => {
    const reports = tempDir();
    const run = await runTool(
      'conform',
      [
        '--surface',
        'translate',
        '--target',
        TARGET,
        '--describe',
        `translate=${DESCRIPTION}`,
        ...selection.flatMap((g) => ['--only', g]),
        '--report-dir',
        reports,
      ],
      { FAULTS: faults.join(',') },
    );
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    t.is(run.code, 1, run.stderr);
    t.deepEqual(redClauses(report), [...expectedRed].sort(), redMismatch(report, expectedRed));
    t.regex(run.stdout, /FAIL translate\/\S+\n {2}clause translate\/\S+ \(must\): [\s\S]*reproduce:/);
  });
}

test('every fault of the faulty translation service is exercised', (t) => {
  t.deepEqual(RUNS.flatMap((r) => r.faults).sort(), (Object.keys(TRANSLATE_FAULTS) as TranslateFault[]).sort());
});

// The translate suite passes a different but right translation service: the permitted-variant front
// (tools/test/variant/variant-translate.ts) over the reference changes only what document 000 leaves open,
// and per set of variants no must-case fails or errs, and exactly the listed informational cases (the
// reference's recorded choices the variant does not share) come out informational. A running service given
// as grpc:// (the other target form) leaves exactly the cases needing instances of their own not-applicable.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { launch, PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import type { JsonReport } from '../conform/report-json.ts';
import { runTool, tempDir } from './run-cli.ts';
import { variantSuite } from './variant-run.ts';
import { EXTERNAL_MODEL_KEYS, TRANSLATE_VARIANTS, type TranslateVariant } from './variant/variant-translate-variants.ts';

// The target runs in a fresh directory, where a bare `--import tsx` would not resolve: name tsx's loader.
const FRONT = '--import {root}/node_modules/tsx/dist/loader.mjs {root}/tools/test/variant/variant-translate.ts';
const REFERENCE_DESCRIPTION = join(PROJECT_ROOT, 'conformance/translate/reference-target/description.json');

type Description = Record<string, unknown> & { variants: Record<string, { command?: string }> };

/** The reference target's description (the front relays to a reference configured like it), with its
 * commands starting the front, with `modelKeys` the variant's own model keys, and `over` laid on top. */
function description(modelKeys: boolean, name = modelKeys ? 'description-model-keys' : 'description', over: (d: Description) => void = () => undefined): string {
  const text = readFileSync(REFERENCE_DESCRIPTION, 'utf8');
  const external = new Map([...EXTERNAL_MODEL_KEYS].map(([outside, inside]) => [inside, outside]));
  const keyed = (key: string, value: unknown): unknown => {
    if (!modelKeys || typeof value !== 'string') return value;
    return ['defaultModel', 'notAllowedModel', 'redirectLoopModel', 'goldenModel', 'model'].includes(key) ? (external.get(value) ?? value) : value;
  };
  const described = JSON.parse(text, keyed) as Description;
  described.variants['default-port']!.command = `node ${FRONT}`;
  described.variants['phonemizer-missing']!.command = `{node} ${FRONT} --port {port}`;
  const dir = join(tempDir(), 'variant-translate');
  mkdirSync(dir, { recursive: true });
  over(described);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(described, null, 2));
  return file;
}

const ALL = Object.keys(TRANSLATE_VARIANTS) as TranslateVariant[];

/** The reference run as a target with the heuristic detector (no Translation:AutoDetect, declared `unscored`)
 * and described by a Spanish -> English pair: a script-based detector takes the Spanish text for English, so
 * the cases that translate the pair's text from an auto source cannot judge theirs (not-applicable), and
 * every other case judges the other pair. */
const otherPair = (): string =>
  description(false, 'description-es-en-heuristic', (d) => {
    d.env = { ...(d.env as Record<string, string> | undefined), Translation__AutoDetect: 'null' };
    d.detector = 'unscored';
    d.pair = { model: '', source: 'es', target: 'en', text: 'Buenos días, amigos', native: { source: 'spa', target: 'eng' } };
    d.detectorLabels = (d.detectorLabels as { variant?: string }[]).filter((l) => l.variant !== undefined);
  });

/** Golden localization fixtures, each with its byte-for-byte layout case. */
const GOLDEN_LAYOUTS = ['app-ui', 'checkout-existing', 'context-hints', 'ordered-unicode', 'values-and-blanks'].map(
  (name) => `translate/localization/output-formatting/golden-${name}-exact-text`,
);

variantSuite({
  surface: 'translate',
  target: `cmd:node ${FRONT} --port {port}`,
  variants: ALL,
  sets: [
    {
      // Every variant at once: the suite's whole run against one different but right service.
      variants: ALL,
      args: ['--describe', `translate=${description(true)}`],
      informational: [
        // error-wording: messages name no field or value ("Error message texts and error details: not shown").
        'translate/errors/messages-and-details/message-names-the-value',
        'translate/translate-text/empty-target/invalid-argument',
        'translate/localization/auto-source-code/auto-and-empty-invalid-argument',
        'translate/localization/auxiliary-json-invalid/existing-and-context-refused',
        'translate/synthesize/phonemizer-missing-code/failed-precondition-naming-it',
        // detected-region: `en-US` where the reference answers `en` (translate/language-format/bcp47-output-form,
        // translate/transcribe/detected-language-source).
        'translate/language-format/bcp47-output-form/primary-subtag-and-und',
        'translate/transcribe/detected-language-source/hint-normalised',
        'translate/transcribe/detected-language-source/engine-language-without-hint',
        // audio-limit-si: "50 MB" as 50,000,000 bytes, so 50 MiB is refused (translate/limits/audio-size-over).
        'translate/limits/audio-size-over/transcribe-50-mib-not-refused-for-size',
        'translate/limits/audio-size-over/translate-audio-50-mib-not-refused-for-size',
        // count-distinct: equal texts counted once (translate/localization/count-details).
        'translate/localization/count-details/arbitrary-documents',
        'translate/localization/count-details/duplicates-counted-per-position',
        // localization-layout: keys sorted, compact, non-ASCII escaped (translate/localization/key-order,
        // translate/localization/output-formatting).
        'translate/localization/key-order/arbitrary-documents',
        'translate/localization/key-order/integer-like-keys-kept-in-order',
        'translate/localization/output-formatting/arbitrary-documents',
        'translate/localization/output-formatting/two-space-indent-literal-unicode',
        ...GOLDEN_LAYOUTS,
        // speed-zero-refused: "Effect of an omitted (zero) speed in SynthesizeSpeech: not shown".
        'translate/synthesize/zero-speed/same-as-one',
        // silence-refused: translate/transcribe/silence.
        'translate/transcribe/silence/no-segments',
        // pcm16-only: 8/24-bit and float WAVs refused (translate/transcribe/wav-encodings).
        'translate/transcribe/wav-encodings/8-24-bit-and-float-accepted',
        'translate/transcribe/wav-encodings/generated-depths-accepted',
        'translate/transcribe/wav-encodings/golden-transcriptions',
      ],
    },
    {
      // The heuristic detector and a Spanish -> English pair (otherPair): the text cases judge that pair.
      variants: [],
      selection: [
        'translate/translate-text/**',
        'translate/language-format/**',
        'translate/proto/translate-text-*/**',
        'translate/proto/detect-language-*/**',
        'translate/detect/**',
        'translate/localization/rpc/**',
        'translate/errors/unsupported-language/**',
      ],
      args: ['--describe', `translate=${otherPair()}`],
      informational: [
        // The heuristic takes the Spanish text for English: the reference's answers for the pair's text differ.
        'translate/language-format/bcp47-output-form/primary-subtag-and-und',
        'translate/language-format/native-output-source/translate-text-model-vocabulary',
      ],
      notApplicable: [
        'translate/language-format/bcp47-pivot/detected-source-reaches-model',
        'translate/language-format/bcp47-pivot/unscored-detector-label-converted',
        'translate/language-format/empty-means-bcp47/translate-text-same-as-bcp47',
        'translate/proto/translate-text-request/source-number',
        'translate/proto/translate-text-response/documented-numbers-and-types',
        'translate/translate-text/auto-detect-source/auto-source-detects-language',
        'translate/translate-text/auto-detect-source/empty-source-detects-language',
        'translate/translate-text/auto-detect-source/same-translation-as-explicit',
        'translate/translate-text/detected-language-format/bcp47-format-gives-bcp47-tag',
        'translate/translate-text/detected-language-format/empty-format-gives-bcp47-tag',
        'translate/translate-text/detected-language-format/native-format-gives-native-code',
        'translate/translate-text/detected-language-only-on-auto/auto-source-fills-it',
      ],
    },
  ],
});

// A running service given as grpc:// (the reference, started here): the suite cannot start instances of it,
// so the cases needing an instance of their own (a condition the description stages on a variant, the
// default port, the model lifetime read from a log) are not-applicable, and the others judge it as usual.
const OWN_INSTANCE_CASES = [
  'translate/capabilities/available-voices/empty-without-tts',
  'translate/capabilities/stt-available/agrees-with-transcribe-without-stt',
  'translate/capabilities/stt-available/false-without-stt',
  'translate/config/audio-to-text/absent-means-no-stt',
  'translate/config/auto-detect/absent-key-uses-heuristic',
  'translate/config/model-ttl-minutes/kept-until-ttl-passes',
  'translate/config/text-to-audio/empty-map-means-no-voice',
  'translate/detect/blank-or-undetermined/und-with-zero-probability-unscored-variant',
  'translate/detect/language-in-format/bcp47-tags-unscored-variant',
  'translate/detect/native-raw-label/declared-labels',
  'translate/detect/native-raw-label/labels-returned-unscored-variant',
  'translate/detect/no-score-zero/arbitrary-unicode-text',
  'translate/detect/no-score-zero/heuristic-variant-samples',
  'translate/detect/probability-range/samples-unscored-variant',
  'translate/detect/raw-label-form/unscored-variant-script-names',
  'translate/detect/rpc/unscored-variant-script-samples',
  'translate/errors/synthesize-without-voice/failed-precondition',
  'translate/errors/transcribe-without-stt/failed-precondition',
  'translate/errors/translate-audio-without-speech/stt-unconfigured',
  'translate/errors/translate-audio-without-speech/tts-unconfigured',
  'translate/language-format/bcp47-pivot/unscored-detector-label-converted',
  'translate/models/lazy-load/nothing-before-first-speech-call',
  'translate/models/lifecycle-visible/one-line-per-load-and-unload',
  'translate/models/transitions/call-across-ttl-not-broken',
  'translate/models/ttl-unload/released-then-loaded-again',
  'translate/service/default-port/listens-on-5100',
  'translate/synthesize/phonemizer-missing-code/failed-precondition-naming-it',
  'translate/synthesize/phonemizer-required/fails-without-phonemizer',
];

test.serial('translate as a grpc:// target: the cases needing an instance of their own are not-applicable, none fails', async (t) => {
  const { translate } = loadReferenceTargets(['translate']);
  const server = await launch(translate!.command!, translate!.env ?? {}, {});
  try {
    const reports = tempDir();
    const selection = [
      'translate/capabilities/**',
      'translate/config/**',
      'translate/service/default-port/**',
      'translate/detect/**',
      'translate/errors/*-without-*/**',
      'translate/language-format/bcp47-pivot/**',
      'translate/models/**',
      'translate/synthesize/phonemizer-*/**',
    ];
    const run = await runTool('conform', [
      '--surface',
      'translate',
      '--target',
      `translate=grpc://127.0.0.1:${server.port}`,
      '--describe',
      `translate=${REFERENCE_DESCRIPTION}`,
      ...selection.flatMap((g) => ['--only', g]),
      '--report-dir',
      reports,
    ]);
    const report = JSON.parse(readFileSync(join(reports, 'report.json'), 'utf8')) as JsonReport;
    const of = (outcome: string) => report.results.filter((r) => r.outcome === outcome);
    t.deepEqual(of('fail').map((r) => `${r.id}: ${r.message.split('\n')[0]}`), []);
    t.deepEqual(of('error').map((r) => `${r.id}: ${r.message.split('\n')[0]}`), []);
    t.deepEqual(of('not-applicable').map((r) => r.id).sort(), [...OWN_INSTANCE_CASES].sort());
    t.true(of('pass').length > 0, 'no case ran against the running service');
    t.is(run.code, 0, `${run.stderr}\n${run.stdout.slice(-3000)}`);
  } finally {
    await server.stop();
  }
});

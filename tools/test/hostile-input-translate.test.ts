
import test from 'ava';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { GrpcClient } from '../../conformance/harness/grpc-client.ts';
import { launch, type Launched } from '../../conformance/harness/launch.ts';
import { loadReferenceTargets } from '../../conformance/harness/reference-targets.ts';
import { peakRssMb } from './hostile-support.ts';
import { silence } from '../../reference/translate/audio/wav-test-support.ts';

const M = TranslateService.method;
/** Growth of the server's peak RSS an attack may cause. */
const RSS_GROWTH_BOUND_MB = 150;
// A bound on waiting for a server that is stuck, not a speed check.
const CALL_TIMEOUT_MS = 30_000;


const ATTACKS: { name: string; audio: Uint8Array }[] = [
  // 5,243 s of audio in 4 MB: upsampling it to 16 kHz ran the server out of memory.
  { name: 'a 4 MB WAV declaring 100 Hz', audio: silence(100, 1, 8, 4 * 2 ** 20) },
  { name: 'a WAV declaring 1 Hz', audio: silence(1, 1, 16, 2000) },
  { name: 'a WAV declaring 4,000,000,000 Hz', audio: silence(4e9, 1, 16, 2000) },
  // 2 hours of 8-bit audio at 1 kHz in 7 MB.
  { name: 'a 7 MB WAV of two hours at 1 kHz', audio: silence(1000, 1, 8, 7_200_000) },
];

let server: Launched;
let client: GrpcClient;

test.before(async () => {
  const { translate } = loadReferenceTargets(['translate']);
  server = await launch(translate!.command!, translate!.env ?? {}, {});
  client = new GrpcClient(`http://127.0.0.1:${server.port}`);
});

test.after.always(async () => {
  client?.close();
  await server?.stop();
});

for (const { name, audio } of ATTACKS) {
  for (const rpc of ['TranscribeAudio', 'TranslateAudio'] as const) {
    test.serial(`${rpc} with ${name}: INVALID_ARGUMENT in bounded time and memory, and the server still answers`, async (t) => {
      const before = peakRssMb(server);
      const out =
        rpc === 'TranscribeAudio'
          ? await client.call(M.transcribeAudio, { audioData: audio, language: 'en' }, { timeoutMs: CALL_TIMEOUT_MS })
          : await client.call(M.translateAudio, { audioData: audio, targetLanguage: 'es' }, { timeoutMs: CALL_TIMEOUT_MS });
      const after = peakRssMb(server);
      const rss = `peak RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after`;
      t.is(out.codeName, 'INVALID_ARGUMENT', `${out.message}; ${rss}`);
      t.true(after > 0, 'the server process was found in /proc');
      t.true(after - before < RSS_GROWTH_BOUND_MB, rss);
      t.log(`${out.codeName}: ${out.message}; ${rss}`);
      t.is((await client.call(M.getCapabilities, {})).codeName, 'OK');
    });
  }
}

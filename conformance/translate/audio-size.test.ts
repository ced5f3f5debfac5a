// The bound on audio_data (translate/limits/audio-size): 50 MB of speech is accepted, shown on the golden
// utterance padded to exactly 50,000,000 bytes by a filler chunk, after the same utterance with a small filler
// is accepted; and (informational) the reference's reading of "50 MB" (52,428,800 bytes, RESOURCE_EXHAUSTED
// one byte over), on A-law WAVs the service refuses without recognising them.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { connect, facts, SPEECH_CASE_MS, speechOn, speechWav } from './target.ts';

const pair = facts.pair;
/** 50 MB, the documented bound of audio_data, in both readings: the decimal one every reading admits, and
 * the binary one the reference takes (translate/limits/audio-size-over). */
const LIMIT = 50_000_000;
const LIMIT_MIB = 50 * 1024 * 1024;
/** The filler of the small copy of the padded utterance. */
const SMALL_FILLER = 1_000;
/** Deadline of one call carrying up to 50 MB (sent, parsed, and for speech recognised). */
const LARGE_CALL_MS = 150_000;

const RPCS = [
  { rpc: 'TranscribeAudio', name: 'transcribe', speech: speechOn('stt'), clause: 'translate/transcribe/rpc' },
  { rpc: 'TranslateAudio', name: 'translate-audio', speech: speechOn('stt', 'tts'), clause: 'translate/translate-audio/rpc' },
] as const;
type Rpc = (typeof RPCS)[number]['rpc'];

/** Fills `b` with a WAV file (header included) of 8-bit A-law silence: a WAV encoding the service need not
 * decode, so a target refuses it without recognising 27 minutes of silence. */
function alawWavInto(b: Buffer): void {
  const size = b.length;
  b.write('RIFF\0\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\0\0\0\0\0\0\0\0\x02\0\x10\0data', 'latin1');
  for (const [at, value] of [[4, size - 8], [24, 16_000], [28, 32_000], [40, size - 44]] as const) b.writeUInt32LE(value, at);
  b.writeUInt16LE(6, 20); // WAVE_FORMAT_ALAW
  b.writeUInt32LE(16_000, 28);
  b.writeUInt16LE(1, 32);
  b.writeUInt16LE(8, 34);
}

/** The chunks of a RIFF/WAVE file (header included, padding byte too), in order. */
function chunks(wav: Buffer): { id: string; bytes: Buffer }[] {
  const found: { id: string; bytes: Buffer }[] = [];
  for (let at = 12; at + 8 <= wav.length; ) {
    const size = wav.readUInt32LE(at + 4);
    const end = Math.min(wav.length, at + 8 + size + (size % 2));
    found.push({ id: wav.toString('latin1', at, at + 4), bytes: wav.subarray(at, end) });
    at = end;
  }
  return found;
}

const golden = Buffer.from(speechWav());
const goldenChunks = chunks(golden);
const GOLDEN_BYTES = 12 + goldenChunks.reduce((n, ch) => n + ch.bytes.length, 0);

/** Fills `b` with the golden utterance as a WAV of exactly b.length bytes: its own chunks, with a `JUNK`
 * chunk (RIFF's filler, which a reader skips) before `data` holding the rest. Whatever its size, the same
 * speech in the same layout, a few seconds long: an answer that differs with the size alone is about the size,
 * not about the duration or the encoding (bounds on those are not stated). */
function paddedSpeechInto(b: Buffer): void {
  const filler = b.length - GOLDEN_BYTES - 8;
  if (filler < 0) throw new Error(`${b.length} bytes cannot hold the ${GOLDEN_BYTES}-byte utterance and a filler chunk`);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(b.length - 8, 4);
  b.write('WAVE', 8, 'latin1');
  let at = 12;
  for (const ch of goldenChunks.filter((x) => x.id !== 'data')) at += ch.bytes.copy(b, at);
  // An odd filler is one byte shorter, and the RIFF padding byte follows it.
  b.write('JUNK', at, 'latin1');
  b.writeUInt32LE(filler - (filler % 2), at + 4);
  b.fill(0, at + 8, at + 8 + filler);
  at += 8 + filler;
  for (const ch of goldenChunks.filter((x) => x.id === 'data')) at += ch.bytes.copy(b, at);
}

/**
 * Calls `rpc` with `size` bytes of audio_data written in place by `fill`, the language fields of the pair and
 * audio_format `wav`. The request is encoded by hand and sent raw from a thread of its own: the generated
 * client's JSON reproducer of 50 MB of bytes, and the four copies an encoder makes, would block this file's
 * other cases for seconds.
 */
async function send(c: CaseContext, rpc: Rpc, size: number, fill: (b: Buffer) => void, what: string) {
  const client = await connect(c);
  // TranscribeAudio: language (2), audio_format (3); TranslateAudio: source_language (2), target_language (3),
  // audio_format (4).
  const head = new BinaryWriter().tag(1, WireType.LengthDelimited).uint32(size).finish();
  const rest = new BinaryWriter().tag(2, WireType.LengthDelimited).string(pair.source);
  if (rpc === 'TranslateAudio') rest.tag(3, WireType.LengthDelimited).string(pair.target);
  const tail = rest.tag(rpc === 'TranscribeAudio' ? 3 : 4, WireType.LengthDelimited).string('wav').finish();
  const body = Buffer.alloc(head.length + size + tail.length);
  body.set(head, 0);
  fill(body.subarray(head.length, head.length + size));
  body.set(tail, head.length + size);
  c.note(`# ${rpc} with ${what} of ${size} bytes in audio_data`);
  return client.callLarge(`/${TranslateService.typeName}/${rpc}`, body, { timeoutMs: LARGE_CALL_MS });
}

for (const { rpc, name, speech, clause } of RPCS) {
  check(`translate/limits/audio-size/${name}-50-mb-of-speech-accepted`, { applicable: speech, timeoutMs: SPEECH_CASE_MS }, async (t, c) => {
    // The layout first, small: a target that does not take it cannot show anything about the size.
    const small = GOLDEN_BYTES + 8 + SMALL_FILLER;
    await c.need(`${rpc} of the golden utterance with a ${SMALL_FILLER}-byte JUNK chunk, ${small} bytes (${clause})`, async () => {
      const out = await send(c, rpc, small, paddedSpeechInto, 'the golden utterance and a JUNK chunk');
      if (out.codeName !== 'OK') throw new Error(`${out.codeName}: ${out.message}`);
    });
    const out = await send(c, rpc, LIMIT, paddedSpeechInto, 'the golden utterance and a JUNK chunk');
    t.is(out.codeName, 'OK', `${LIMIT} bytes refused where ${small} bytes of the same speech were accepted: ${out.message}`);
  });

  check(`translate/limits/audio-size-over/${name}-50-mib-not-refused-for-size`, { timeoutMs: 180_000 }, async (t, c) => {
    const out = await send(c, rpc, LIMIT_MIB, alawWavInto, 'an A-law WAV');
    t.not(out.codeName, 'RESOURCE_EXHAUSTED', out.message);
  });

  check(`translate/limits/audio-size-over/${name}-one-byte-over-resource-exhausted`, { timeoutMs: 180_000 }, async (t, c) => {
    const out = await send(c, rpc, LIMIT_MIB + 1, alawWavInto, 'an A-law WAV');
    t.is(out.codeName, 'RESOURCE_EXHAUSTED', out.message);
  });
}

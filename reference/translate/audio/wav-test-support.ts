// WAV files for tests: written by hand, so a header can declare what no encoder would (any rate, any size).
/** A PCM WAV of silence written by hand: any rate the header can hold, `dataBytes` of samples. */
export function silence(rate: number, channels: number, bits: number, dataBytes: number): Uint8Array {
  const b = Buffer.alloc(44 + dataBytes, bits === 8 ? 128 : 0);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(Math.min(0xffffffff, (rate * channels * bits) / 8), 28);
  b.writeUInt16LE((channels * bits) / 8, 32);
  b.writeUInt16LE(bits, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

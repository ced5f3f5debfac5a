// Resampling with libsamplerate (compiled to WebAssembly): band-limited sinc interpolation, the same
// converter family sox and most audio tools trust.
import libsamplerate from '@alexanderolsen/libsamplerate-js';

// A CommonJS module: its named exports are only on the default export under ESM.
const { ConverterType, create } = libsamplerate;

export const STT_SAMPLE_RATE = 16_000;

export async function resample(samples: Float32Array, from: number, to: number): Promise<Float32Array> {
  if (from === to || samples.length === 0) return samples;
  const converter = await create(1, from, to, { converterType: ConverterType.SRC_SINC_MEDIUM_QUALITY });
  try {
    return converter.simple(samples);
  } finally {
    converter.destroy();
  }
}

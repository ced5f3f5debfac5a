// What every TTS engine offers the speech RPCs, once loaded.

export interface SpeechOptions {
  /** Rate multiplier, already validated (> 0): 2 speaks twice as fast. */
  speed: number;
  /** A speaker name the voice offers, or undefined for its default. */
  speaker: string | undefined;
}

export interface Voice {
  /** Sampling rate of the samples `synthesize` returns. */
  readonly sampleRate: number;
  /** Speaker names of a multi-speaker voice; empty for a single-speaker voice. */
  readonly speakers: string[];
  /** Mono samples in [-1, 1] for a non-blank text. */
  synthesize(text: string, options: SpeechOptions): Promise<Float32Array>;
  /** Frees what loading took (an ONNX session); nothing for a command-line engine. */
  release(): Promise<void>;
}

// Language detectors behind one interface. `label` is the detector's own raw label (returned for
// `native`), `language` the same result normalised to BCP-47 (the pivot every model receives).
export interface Detection {
  label: string;
  language: string;
  /** In [0, 1]; 0 when the detector gives no score. */
  probability: number;
}

export interface Detector {
  readonly kind: string;
  detect(text: string): Promise<Detection>;
}

/** The result for text without any letter. */
export const UNDETERMINED: Detection = { label: 'und', language: 'und', probability: 0 };

export const hasLetter = (text: string): boolean => /\p{L}/u.test(text);

// The heuristic detector: counts letters per Unicode script and names the language that script most
// likely writes. It gives no score (probability 0). Latin text is taken as English: a script alone
// cannot tell Latin-script languages apart.
import { type Detection, type Detector, UNDETERMINED } from './detector.ts';

/** Script → language, in the order scripts are tested. Kana before Han: Japanese mixes both. */
const SCRIPTS: readonly (readonly [script: string, language: string])[] = [
  ['Latin', 'en'],
  ['Cyrillic', 'ru'],
  ['Greek', 'el'],
  ['Arabic', 'ar'],
  ['Hebrew', 'he'],
  ['Hiragana', 'ja'],
  ['Katakana', 'ja'],
  ['Han', 'zh'],
  ['Hangul', 'ko'],
  ['Thai', 'th'],
  ['Devanagari', 'hi'],
  ['Bengali', 'bn'],
  ['Armenian', 'hy'],
  ['Georgian', 'ka'],
  ['Tamil', 'ta'],
  ['Telugu', 'te'],
  ['Gujarati', 'gu'],
  ['Gurmukhi', 'pa'],
  ['Kannada', 'kn'],
  ['Malayalam', 'ml'],
  ['Sinhala', 'si'],
  ['Khmer', 'km'],
  ['Lao', 'lo'],
  ['Myanmar', 'my'],
  ['Ethiopic', 'am'],
  ['Tibetan', 'bo'],
];

const PATTERNS = SCRIPTS.map(([script, language]) => ({
  script,
  language,
  pattern: new RegExp(`\\p{Script=${script}}`, 'gu'),
}));

export class HeuristicDetector implements Detector {
  readonly kind = 'heuristic';

  async detect(text: string): Promise<Detection> {
    let best: { script: string; language: string; count: number } | undefined;
    let kana = 0;
    for (const { script, language, pattern } of PATTERNS) {
      const count = text.match(pattern)?.length ?? 0;
      if (script === 'Hiragana' || script === 'Katakana') kana += count;
      if (count > 0 && (!best || count > best.count)) best = { script, language, count };
    }
    if (!best) return UNDETERMINED;
    // Any kana in text dominated by Han characters is Japanese.
    if (best.script === 'Han' && kana > 0) return { label: 'Han', language: 'ja', probability: 0 };
    return { label: best.script, language: best.language, probability: 0 };
  }
}

import test from 'ava';
import { FastTextDetector } from './fasttext-detector.ts';
import { HeuristicDetector } from './heuristic-detector.ts';

test('heuristic: the dominant script names the language; no score', async (t) => {
  const detector = new HeuristicDetector();
  t.deepEqual(await detector.detect('Привет, мир'), { label: 'Cyrillic', language: 'ru', probability: 0 });
  t.deepEqual(await detector.detect('日本語のテキストです'), { label: 'Katakana', language: 'ja', probability: 0 });
  t.deepEqual(await detector.detect('東京都の人口'), { label: 'Han', language: 'ja', probability: 0 });
  t.deepEqual(await detector.detect('你好世界'), { label: 'Han', language: 'zh', probability: 0 });
  t.deepEqual(await detector.detect('안녕하세요'), { label: 'Hangul', language: 'ko', probability: 0 });
  t.deepEqual(await detector.detect('Hello'), { label: 'Latin', language: 'en', probability: 0 });
  t.deepEqual(await detector.detect('123 !! 🙂'), { label: 'und', language: 'und', probability: 0 });
});

test('fastText LID-176: label, BCP-47 language and a probability in [0, 1]', async (t) => {
  const detector = new FastTextDetector();
  const french = await detector.detect('Bonjour tout le monde, comment allez-vous aujourd\u2019hui ?');
  t.is(french.label, 'fr');
  t.is(french.language, 'fr');
  t.true(french.probability > 0.5 && french.probability <= 1);
  t.deepEqual(await detector.detect('   '), { label: 'und', language: 'und', probability: 0 });
});

test('fastText: a model path that does not exist is INTERNAL', async (t) => {
  const error = await t.throwsAsync(new FastTextDetector('/nonexistent/lid.ftz').detect('hello'));
  t.is((error as { code?: string }).code, 'INTERNAL');
});

import test from 'ava';
import { PseudoModel, pseudoTranslate } from './pseudo-model.ts';

test('pseudo-translation accents letters, marks the target and keeps placeholders', (t) => {
  t.is(pseudoTranslate('Hello {name}, %1$s <b>new</b> {{count}} &amp; 5', 'spa'), '[spa] Ĥéļļö {name}, %1$s <b>ñéŵ</b> {{count}} &amp; 5');
});

test('ICU plural and select keep their structure; only case messages are accented', (t) => {
  t.is(
    pseudoTranslate('{count, plural, =0 {No albums} one {# album} other {# albums}} in {place}', 'spa'),
    '[spa] {count, plural, =0 {Ñö áļƀúɱš} one {# áļƀúɱ} other {# áļƀúɱš}} íñ {place}',
  );
  t.is(pseudoTranslate('{g, select, female {She} other {They}} {n, number} }{ x', 'deu'), '[deu] {g, select, female {Šĥé} other {Ţĥéý}} {n, number} }{ ẋ');
});

test('BCP-47 codes convert to ISO 639-3; unknown codes pass unchanged; unsupported pairs are refused', (t) => {
  const model = new PseudoModel('p');
  t.is(model.toNative('es'), 'spa');
  t.is(model.toNative('zh-Hant'), 'zho');
  t.is(model.toNative('spa'), 'spa');
  t.is(model.toNative('xx'), 'xx');
  t.is(model.toNative('sw'), 'sw'); // a real language the model lacks stays as given
  t.notThrows(() => model.checkPair({ source: 'eng', target: 'spa' }));
  t.throws(() => model.checkPair({ source: 'eng', target: 'sw' }), { message: /target_language "sw"/ });
  t.throws(() => model.checkPair({ source: 'xx', target: 'spa' }), { message: /source_language "xx"/ });
});

import test from 'ava';
import { leafStrings, parseJson, serialize, stringAt } from './json-tree.ts';

test('order, number text and layout survive a round trip', (t) => {
  const text = '{"b":{"2":"x","1":[12345678901234567890,1e2,true,null,"y"]},"a":{},"c":[]}';
  const root = parseJson(text, 'json');
  t.is(serialize(root, text, new Map()), '{\n  "b": {\n    "2": "x",\n    "1": [\n      12345678901234567890,\n      1e2,\n      true,\n      null,\n      "y"\n    ]\n  },\n  "a": {},\n  "c": []\n}');
  t.deepEqual(leafStrings(root).map((l) => l.path), [['b', '2'], ['b', '1', 4]]);
  t.is(stringAt(root, ['b', '1', 4]), 'y');
  t.is(stringAt(root, ['b', '1', 0]), undefined);
});

for (const bad of ['', '{', '{"a":1,}', "{'a':1}", '{"a":1} x', '// c\n{}', 'NaN']) {
  test(`invalid JSON ${JSON.stringify(bad)} is INVALID_ARGUMENT naming the field`, (t) => {
    const error = t.throws(() => parseJson(bad, 'existing_translation'));
    t.is((error as { code?: string }).code, 'INVALID_ARGUMENT');
    t.regex(error!.message, /^existing_translation is not valid JSON/);
  });
}

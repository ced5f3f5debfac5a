// The change recorder and the serialiser's cache, against a model: random groups of update functions (some
// throwing half-way) are run on a document through the recorder and on a plain copy with JSON semantics; after
// each group the document equals the model, the cached serialisation equals JSON.stringify, taking the group back
// gives the committed state, and putting it again (a write that succeeded) or not (one that failed) keeps the
// serialiser right for the next group.
import { types } from 'node:util';
import test from 'ava';
import fc from 'fast-check';
import { ChangeRecorder } from './change-recorder.ts';
import { DocumentSerializer } from './document-serializer.ts';

interface Member {
  name: string;
  tags: string[];
  n: number;
}
interface Doc {
  version: number;
  users: Record<string, Member>;
  settings: Record<string, string | number>;
  list?: number[];
}

// Integer-like keys come first in JSON order, so an entry can be added in the middle of the others.
const KEYS = ['a', 'b', 'c', '10', '2', 'é x', '0', '7', '33', '4'];
const key = fc.constantFrom(...KEYS);
const member = fc.record({ name: fc.string({ maxLength: 4 }), tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 4 }), n: fc.integer() });

type Op =
  | { kind: 'put'; key: string; value: Member }
  | { kind: 'delete'; key: string }
  | { kind: 'rename'; key: string; name: string }
  | { kind: 'push'; key: string; tag: string }
  | { kind: 'splice'; key: string; start: number; count: number; tag: string }
  | { kind: 'sort' | 'reverse' | 'shift'; key: string }
  | { kind: 'length'; key: string; length: number }
  | { kind: 'copy'; key: string; to: string }
  | { kind: 'settings'; patch: Record<string, string | number> }
  | { kind: 'list'; value: number }
  | { kind: 'drop-list' }
  | { kind: 'version'; value: number }
  | { kind: 'replace-users'; value: Record<string, Member> };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key, value: member }),
  fc.record({ kind: fc.constant('delete' as const), key }),
  fc.record({ kind: fc.constant('rename' as const), key, name: fc.string({ maxLength: 4 }) }),
  fc.record({ kind: fc.constant('push' as const), key, tag: fc.string({ maxLength: 3 }) }),
  fc.record({
    kind: fc.constant('splice' as const),
    key,
    start: fc.integer({ min: 0, max: 4 }),
    count: fc.integer({ min: 0, max: 3 }),
    tag: fc.string({ maxLength: 3 }),
  }),
  fc.record({ kind: fc.constantFrom('sort' as const, 'reverse' as const, 'shift' as const), key }),
  fc.record({ kind: fc.constant('length' as const), key, length: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ kind: fc.constant('copy' as const), key, to: key }),
  fc.record({
    kind: fc.constant('settings' as const),
    patch: fc.dictionary(fc.constantFrom('host', 'port', 'from'), fc.oneof(fc.string({ maxLength: 3 }), fc.integer())),
  }),
  fc.record({ kind: fc.constant('list' as const), value: fc.integer() }),
  fc.record({ kind: fc.constant('drop-list' as const) }),
  fc.record({ kind: fc.constant('version' as const), value: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('replace-users' as const), value: fc.dictionary(key, member, { maxKeys: 3 }) }),
);

/** An update function: its operations, and whether it throws after them. */
const updater = fc.record({ ops: fc.array(op, { maxLength: 5 }), throws: fc.boolean() });
/** A group of update functions, and whether its write succeeds. */
const group = fc.record({ updaters: fc.array(updater, { minLength: 1, maxLength: 4 }), written: fc.boolean() });

const jsonCopy = <V>(value: V): V => JSON.parse(JSON.stringify(value));

/** Applies `op` to `doc`; `copy` is what an assignment does with a value taken from the document itself. */
function apply(doc: Doc, op: Op, copy: <V>(value: V) => V): void {
  const user = 'key' in op ? doc.users[op.key] : undefined;
  switch (op.kind) {
    case 'put':
      doc.users[op.key] = jsonCopy(op.value);
      return;
    case 'delete':
      delete doc.users[op.key];
      return;
    case 'rename':
      if (user) user.name = op.name;
      return;
    case 'push':
      user?.tags.push(op.tag);
      return;
    case 'splice':
      user?.tags.splice(op.start, op.count, op.tag);
      return;
    case 'sort':
    case 'reverse':
    case 'shift':
      user?.tags[op.kind]();
      return;
    case 'length':
      if (user) {
        const old = user.tags.length;
        user.tags.length = op.length;
        // What the store does itself (no holes: JSON would read them back as null); a no-op on the draft.
        for (let i = old; i < op.length; i++) user.tags[i] ??= null as unknown as string;
      }
      return;
    case 'copy':
      if (user) doc.users[op.to] = copy(user);
      // Changing the copy leaves the original as it was.
      if (user && op.to !== op.key) doc.users[op.to]!.name += '!';
      return;
    case 'settings':
      Object.assign(doc.settings, op.patch);
      return;
    case 'list':
      doc.list ??= [];
      doc.list.push(op.value);
      return;
    case 'drop-list':
      delete doc.list;
      return;
    case 'version':
      doc.version = op.value;
      return;
    case 'replace-users':
      doc.users = jsonCopy(op.value);
      return;
  }
}

class Thrown extends Error {}

test('groups of changes: the document follows the model, undo and redo are exact, the cache is right', (t) => {
  fc.assert(
    fc.property(fc.array(group, { minLength: 1, maxLength: 6 }), (groups) => {
      const doc: Doc = { version: 1, users: { a: { name: 'A', tags: ['x', 'y'], n: 1 } }, settings: { host: '' } };
      const recorder = new ChangeRecorder(doc);
      const serializer = new DocumentSerializer(2);
      let committed = JSON.stringify(doc);
      if (serializer.serialize(doc).toString() !== committed) throw new Error('first serialisation differs');
      for (const { updaters, written } of groups) {
        recorder.clear();
        let model = JSON.parse(committed) as Doc;
        for (const { ops, throws } of updaters) {
          const mark = recorder.size;
          try {
            recorder.run((draft) => {
              for (const o of ops) apply(draft, o, (value) => value);
              if (throws) throw new Thrown();
            });
          } catch (error) {
            if (!(error instanceof Thrown)) throw error;
            recorder.undoTo(mark);
          }
          if (!throws) {
            const next = jsonCopy(model);
            for (const o of ops) apply(next, o, jsonCopy);
            model = next;
          }
        }
        const after = JSON.stringify(doc);
        if (after !== JSON.stringify(model)) throw new Error(`document ${after} differs from the model ${JSON.stringify(model)}`);
        serializer.invalidate(recorder.touched);
        const text = serializer.serialize(doc).toString();
        if (text !== after) throw new Error(`serialised ${text}, expected ${after}`);
        recorder.undoAll();
        if (JSON.stringify(doc) !== committed) throw new Error(`undo gave ${JSON.stringify(doc)}, expected ${committed}`);
        if (written) {
          recorder.redoAll();
          if (JSON.stringify(doc) !== after) throw new Error(`redo gave ${JSON.stringify(doc)}, expected ${after}`);
          committed = after;
        } else {
          serializer.invalidate(recorder.touched);
        }
      }
      if (serializer.serialize(doc).toString() !== committed) throw new Error('last serialisation differs');
    }),
    { numRuns: 400 },
  );
  t.pass();
});

test('outside update() the document refuses changes, and a result is given without its proxy', (t) => {
  const doc: Doc = { version: 1, users: { a: { name: 'A', tags: [], n: 1 } }, settings: {} };
  const recorder = new ChangeRecorder(doc);
  let kept: Doc | undefined;
  const result = recorder.run((draft) => {
    kept = draft;
    return draft.users.a;
  });
  t.false(types.isProxy(result));
  t.is(result, doc.users.a);
  t.throws(
    () => {
      kept!.users.a!.name = 'late';
    },
    { instanceOf: TypeError, message: /changed outside update\(\)/ },
  );
  t.is(doc.users.a!.name, 'A');
  t.is(recorder.size, 0);
});

test('an assigned object is stored as a copy of its JSON form', (t) => {
  const doc = { items: {} as Record<string, unknown> };
  const recorder = new ChangeRecorder(doc);
  const item = { title: 'first', at: new Date(0), missing: undefined, big: Number.NaN };
  recorder.run((draft) => {
    draft.items.x = item;
    item.title = 'changed after';
  });
  t.deepEqual(doc.items.x, { title: 'first', at: '1970-01-01T00:00:00.000Z', big: null });
  t.not(doc.items.x, item);
  t.deepEqual(recorder.touched, [{ top: 'items', entry: 'x' }]);
});

test('defining properties, prototypes and freezing are refused', (t) => {
  const recorder = new ChangeRecorder({ items: {} as Record<string, unknown> });
  const refused = [
    (draft: { items: object }) => Object.defineProperty(draft.items, 'x', { value: 1 }),
    (draft: { items: object }) => Object.setPrototypeOf(draft.items, null),
    (draft: { items: object }) => Object.freeze(draft.items),
  ];
  for (const fn of refused) t.throws(() => recorder.run(fn), { instanceOf: TypeError });
  t.is(recorder.size, 0);
});

test('setting a value equal to the present one records nothing', (t) => {
  const doc = { settings: { host: 'h', port: 25 } };
  const recorder = new ChangeRecorder(doc);
  recorder.run((draft) => Object.assign(draft.settings, { host: 'h', port: 25 }));
  t.is(recorder.size, 0);
  t.deepEqual(recorder.touched, []);
});

test('what a change stores is what JSON would read back: no holes, no undefined', (t) => {
  const doc = { items: { a: 1, b: 2, c: 3 } as Record<string, unknown>, list: [1, 2, 3] as unknown[] };
  const recorder = new ChangeRecorder(doc);
  recorder.run((draft) => {
    draft.items.a = undefined;
    draft.items.f = () => 1;
    draft.items.n = Number.POSITIVE_INFINITY;
    draft.list.length = 5;
    delete draft.list[0];
    draft.list[7] = 8;
  });
  const expected = { items: { b: 2, c: 3, n: null }, list: [null, 2, 3, null, null, null, null, 8] };
  t.deepEqual(doc, expected);
  t.deepEqual(JSON.parse(JSON.stringify(doc)), expected);
  recorder.undoAll();
  t.deepEqual(doc, { items: { a: 1, b: 2, c: 3 }, list: [1, 2, 3] });
  t.deepEqual(Object.keys(doc.items), ['a', 'b', 'c']);
});

test('values JSON cannot hold are refused', (t) => {
  const recorder = new ChangeRecorder({ items: {} as Record<string, unknown>, list: [] as unknown[] });
  const refused: [(draft: { items: Record<string, unknown>; list: unknown[] }) => void, RegExp][] = [
    [
      (draft) => {
        draft.items.big = 1n;
      },
      /BigInt/,
    ],
    [
      (draft) => {
        (draft.list as unknown as Record<string, number>).extra = 1;
      },
      /elements only/,
    ],
    [
      (draft) => {
        draft.items.cycle = cycle;
      },
      /circular/,
    ],
  ];
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const [fn, message] of refused) t.throws(() => recorder.run(fn), { instanceOf: TypeError, message });
  t.is(recorder.size, 0);
});

// Records each change an update function makes to the document, through proxies of the document's objects, so
// the store can take it back (the function threw; the write is in flight and readers must see the disk's state;
// the write failed) and put it again (the write is on disk). It also notes which part of the document changed
// (a top-level key, or one entry of a top-level object), for the serialiser's cache.
//
// An update function may read, assign, delete, and call the array methods that change an array in place (push,
// splice, sort…); what a change stores follows JSON's rules (plan-change.ts). Outside an update, the proxies
// refuse changes.
import { type Change, type Plan, planDelete, planSet, redo, slotsOf, undo } from './plan-change.ts';

/** Where a change happened: the document itself (no `top`), a top-level key, or one entry of a top-level object. */
export interface Place {
  top?: string;
  entry?: string;
}

/** The place of `parent`'s property `key`: the depth stops at entries of top-level keys. */
function childPlace(parent: Place, key: string): Place {
  if (parent.top === undefined) return { top: key };
  if (parent.entry === undefined) return { top: parent.top, entry: key };
  return parent;
}

function refuse(what: string): never {
  throw new TypeError(`store document: ${what}`);
}

export class ChangeRecorder<T extends object> {
  readonly #root: T;
  #changes: Change[] = [];
  #touched: Place[] = [];
  #active = false;
  // One proxy per object of the document, kept between updates; each object has one place, since an assigned
  // object is stored as a copy.
  readonly #proxies = new WeakMap<object, object>();
  readonly #targets = new WeakMap<object, object>();

  constructor(root: T) {
    this.#root = root;
  }

  /** The number of changes recorded since `clear()`: a mark to `undoTo`. */
  get size(): number {
    return this.#changes.length;
  }

  /** The places changed since `clear()`, changes taken back included (a cache may drop more than it needs). */
  get touched(): readonly Place[] {
    return this.#touched;
  }

  clear(): void {
    this.#changes = [];
    this.#touched = [];
  }

  /** Runs `fn` on the document's proxy; its changes are recorded. The result is given without its proxy. */
  run<R>(fn: (draft: T) => R): R {
    this.#active = true;
    try {
      const result = fn(this.#proxy(this.#root, {}) as T);
      return ((result !== null && typeof result === 'object' && this.#targets.get(result)) || result) as R;
    } finally {
      this.#active = false;
    }
  }

  /** Takes back the changes recorded after `mark`, newest first, and forgets them. */
  undoTo(mark: number): void {
    for (let i = this.#changes.length - 1; i >= mark; i--) undo(this.#changes[i]!);
    this.#changes.length = mark;
  }

  /** Takes back every recorded change and keeps them, for `redoAll`. */
  undoAll(): void {
    for (let i = this.#changes.length - 1; i >= 0; i--) undo(this.#changes[i]!);
  }

  /** Puts every recorded change again, oldest first (after `undoAll`). */
  redoAll(): void {
    for (const change of this.#changes) redo(change);
  }

  #proxy(target: object, place: Place): object {
    const known = this.#proxies.get(target);
    if (known) return known;
    const recorder = this;
    const proxy = new Proxy(target, {
      get(object, key) {
        const value = Reflect.get(object, key);
        if (typeof key === 'symbol' || value === null || typeof value !== 'object') return value;
        return recorder.#proxy(value, childPlace(place, key));
      },
      set(object, key, value) {
        recorder.#change(object, place, key, () => planSet(object, key as string, value));
        return true;
      },
      deleteProperty(object, key) {
        recorder.#change(object, place, key, () => planDelete(object, key as string));
        return true;
      },
      defineProperty: () => refuse('define a property: assign it instead'),
      setPrototypeOf: () => refuse('change a prototype'),
      preventExtensions: () => refuse('freeze or seal an object'),
    });
    this.#proxies.set(target, proxy);
    this.#targets.set(proxy, target);
    return proxy;
  }

  #change(target: object, place: Place, key: string | symbol, plan: () => Plan): void {
    if (!this.#active) refuse('changed outside update(): change it inside the function given to update()');
    if (typeof key === 'symbol') refuse('a symbol key is not stored');
    const { keys, act, follow } = plan();
    const before = slotsOf(target, keys);
    act();
    const after = slotsOf(target, keys);
    if (before.every((slot, i) => slot.has === after[i]!.has && Object.is(slot.value, after[i]!.value))) return;
    this.#changes.push(follow === undefined ? { target, keys, before, after } : { target, keys, before, after, follow });
    this.#touched.push(childPlace(place, key));
  }
}

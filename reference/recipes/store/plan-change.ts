// What one assignment or deletion on a document object changes, with JSON's rules, so that memory always equals
// what a reload from disk gives: an assigned object is stored as a fresh copy of its JSON form (a Date becomes
// its ISO string, and the document never holds an object twice, nor one the caller keeps); a value JSON omits
// (undefined, a function) deletes the property; NaN and Infinity become null; an array never gets holes (growing
// it, or assigning past its end, fills with null; deleting an element leaves null — array methods truncate after
// deleting, so they keep working).

export interface Slot {
  has: boolean;
  value: unknown;
}

/** One change: every key of `target` it touches, before and after (an array's length with its elements). */
export interface Change {
  target: object;
  keys: string[];
  before: Slot[];
  after: Slot[];
  /** For a key deleted from an object: the key that followed it, to put it back in its place. */
  follow?: string;
}

export interface Plan {
  keys: string[];
  act: () => void;
  follow?: string;
}

const OMIT = Symbol('omit');

function refuse(what: string): never {
  throw new TypeError(`store document: ${what}`);
}

/** The value as stored: a copy of its JSON form, or OMIT when JSON leaves it out. */
function toStored(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return refuse('a BigInt has no JSON form');
    case 'object': {
      if (value === null) return null;
      const text = JSON.stringify(value);
      return text === undefined ? OMIT : JSON.parse(text);
    }
    default:
      return OMIT;
  }
}

/** The array index `key` names, if it names one. */
function arrayIndex(key: string): number | undefined {
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && index < 2 ** 32 - 1 && String(index) === key ? index : undefined;
}

function fillNull(array: unknown[], from: number, to: number): void {
  for (let i = from; i < to; i++) if (!Object.hasOwn(array, i)) array[i] = null;
}

function range(from: number, to: number): string[] {
  const keys: string[] = [];
  for (let i = from; i < to; i++) keys.push(String(i));
  return keys;
}

export function planDelete(target: object, key: string): Plan {
  if (Array.isArray(target)) {
    const index = arrayIndex(key);
    if (index !== undefined && index < target.length) {
      return {
        keys: [key],
        act: () => {
          target[index] = null;
        },
      };
    }
    return { keys: [key], act: () => void Reflect.deleteProperty(target, key) };
  }
  const keys = Object.keys(target);
  const follow = keys[keys.indexOf(key) + 1];
  return {
    keys: [key],
    act: () => void Reflect.deleteProperty(target, key),
    ...(follow !== undefined && Object.hasOwn(target, key) ? { follow } : {}),
  };
}

export function planSet(target: object, key: string, value: unknown): Plan {
  const stored = toStored(value);
  if (!Array.isArray(target)) {
    if (stored === OMIT) return planDelete(target, key);
    return { keys: [key], act: () => void Reflect.set(target, key, stored) };
  }
  const length = target.length;
  const element = stored === OMIT ? null : stored;
  if (key === 'length') {
    if (typeof element !== 'number' || !Number.isInteger(element) || element < 0) refuse(`invalid array length ${value}`);
    // Shrinking removes elements, growing adds nulls: both are listed, to be put back.
    return {
      keys: ['length', ...range(Math.min(element, length), Math.max(element, length))],
      act: () => {
        target.length = element;
        fillNull(target, length, element);
      },
    };
  }
  const index = arrayIndex(key);
  if (index === undefined) refuse(`an array holds elements only, not "${key}"`);
  return {
    keys: ['length', ...range(length, index), key],
    act: () => {
      target[index] = element;
      fillNull(target, length, index);
    },
  };
}

function slotOf(target: object, key: string): Slot {
  return Object.hasOwn(target, key) ? { has: true, value: Reflect.get(target, key) } : { has: false, value: undefined };
}

export function slotsOf(target: object, keys: string[]): Slot[] {
  return keys.map((key) => slotOf(target, key));
}

// `length` first: shrinking drops elements and growing makes holes, so the elements are set after it.
function apply(target: object, keys: string[], slots: Slot[]): void {
  keys.forEach((key, i) => {
    const slot = slots[i]!;
    if (slot.has) Reflect.set(target, key, slot.value);
    else Reflect.deleteProperty(target, key);
  });
}

/** Puts `key`, just added back (so last), before `follow` again: the keys from `follow` on go after it. A
 * collection's order is its insertion order, and taking a change back must not alter it. */
function restoreOrder(target: Record<string, unknown>, key: string, follow: string): void {
  const keys = Object.keys(target);
  for (let i = keys.indexOf(follow); i >= 0 && i < keys.length; i++) {
    const moved = keys[i]!;
    if (moved === key) continue;
    const value = target[moved];
    delete target[moved];
    target[moved] = value;
  }
}

export function undo(change: Change): void {
  apply(change.target, change.keys, change.before);
  if (change.follow !== undefined) restoreOrder(change.target as Record<string, unknown>, change.keys[0]!, change.follow);
}

export function redo(change: Change): void {
  apply(change.target, change.keys, change.after);
}

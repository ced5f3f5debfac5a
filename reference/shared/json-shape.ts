// A bound on the shape of a JSON text, checked before it is parsed: parsing a body of a million keys (a few
// MB) costs hundreds of MB, and a body meant to hold a handful of fields needs no such shape. Only what lies
// outside strings is counted; a string is skipped with a native search for its closing quote, so a 50 MB
// base64 field costs a memchr, not a loop over its bytes.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

export interface JsonShapeLimits {
  /** Objects, arrays and the members or elements after a first one (commas), together. */
  maxValues: number;
  maxDepth: number;
}

/** Why `bytes` (JSON text, or not) exceeds the limits, or null; malformed text is left to the parser. */
export function jsonShapeProblem(bytes: Buffer, limits: JsonShapeLimits): string | null {
  let values = 0;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = closingQuote(bytes, i);
      if (i === -1) return null;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      values++;
      if (++depth > limits.maxDepth) return `it nests deeper than ${limits.maxDepth} levels`;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    } else if (byte === COMMA) {
      values++;
    }
    if (values > limits.maxValues) return `it holds more than ${limits.maxValues} values`;
  }
  return null;
}

/** The index of the quote that closes the string opening at `open`, or -1. */
function closingQuote(bytes: Buffer, open: number): number {
  for (let at = bytes.indexOf(QUOTE, open + 1); at !== -1; at = bytes.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

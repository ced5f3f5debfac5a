// The bounds of the ingredients module, in one place: the error messages and the tests read them from here.

/** Longest ingredient line accepted, in UTF-16 code units; longer ones are refused (`line-too-long`). */
export const MAX_LINE_LENGTH = 1000;

/** How much of a line the parsing library reads: its first PARSE_WINDOW characters, cut at the last whitespace
 * inside them; the rest belongs to the description. The library's regular expressions grow about with the cube of
 * the length on runs of fractions and separators ("½-½½-…": 0.1 s at 500 characters, 0.8 s at 1,000), and a
 * quantity is written at the start of a line or close to it. */
export const PARSE_WINDOW = 200;

/** Smallest scaling factor accepted: 1 serving from 1,000. */
export const MIN_FACTOR = 0.001;

/** Largest scaling factor accepted: 1,000 servings from 1. */
export const MAX_FACTOR = 1000;

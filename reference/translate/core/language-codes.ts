// Language codes: BCP-47 is the pivot. A tag is canonicalised (lower-case language, title-case script),
// its region and anything after it dropped; a code that does not parse as BCP-47 is kept as it is, so a
// model's native vocabulary passes through untouched.
import { parse } from 'bcp-47';
import { iso6393, iso6393To1 } from 'iso-639-3';
import { invalidArgument } from './errors.ts';

export type LanguageFormat = 'bcp47' | 'native';

/** The `language_format` field: empty or `bcp47`, or `native`, letter case ignored. */
export function parseLanguageFormat(value: string): LanguageFormat {
  const lower = value.toLowerCase();
  if (lower === '' || lower === 'bcp47') return 'bcp47';
  if (lower === 'native') return 'native';
  throw invalidArgument(`language_format "${value}" is not supported (use "", "bcp47" or "native")`);
}

/** `auto`, empty or whitespace: the caller asks for detection. */
export function isAuto(code: string): boolean {
  const trimmed = code.trim();
  return trimmed === '' || trimmed.toLowerCase() === 'auto';
}

export interface ParsedTag {
  /** Canonical `language` or `language-Script`. */
  tag: string;
  language: string;
  script: string | undefined;
}

/** A BCP-47 tag reduced to language (+ script), or undefined when `code` is not a BCP-47 tag. */
export function parseTag(code: string): ParsedTag | undefined {
  const trimmed = code.trim();
  if (trimmed === '' || /[^A-Za-z0-9-]/.test(trimmed)) return undefined;
  const parsed = parse(trimmed);
  if (!parsed.language || parsed.language.length > 3) return undefined;
  const language = parsed.language.toLowerCase();
  const script = parsed.script ? parsed.script[0]!.toUpperCase() + parsed.script.slice(1).toLowerCase() : undefined;
  return { tag: script ? `${language}-${script}` : language, language, script };
}

/** The canonical pivot form of a code: the reduced tag, or the code unchanged when it is not BCP-47. */
export function normalizeCode(code: string): string {
  return parseTag(code)?.tag ?? code.trim();
}

const threeToOne = iso6393To1 as Record<string, string>;
const oneToThree: Map<string, string> = new Map(Object.entries(threeToOne).map(([three, one]) => [one, three]));
const knownThree: Set<string> = new Set(iso6393.map((entry) => entry.iso6393));

/** ISO 639-3 code of a primary subtag (`es` → `spa`, `ceb` → `ceb`), or undefined. */
export function toIso6393(language: string): string | undefined {
  if (language.length === 2) return oneToThree.get(language);
  return knownThree.has(language) ? language : undefined;
}

/** The ISO 639-3 code of a BCP-47 tag when `offered` has it, else `code` unchanged (the conversion of
 * every adapter whose native codes are ISO 639-3). */
export function toOfferedIso6393(code: string, offered: ReadonlySet<string>): string {
  const parsed = parseTag(code);
  const three = parsed && toIso6393(parsed.language);
  return three && offered.has(three) ? three : code;
}

/** The shortest BCP-47 primary subtag for an ISO 639-3 code (`spa` → `es`, `ceb` → `ceb`). */
export function fromIso6393(code: string): string {
  return threeToOne[code] ?? code;
}

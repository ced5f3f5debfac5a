// Canonical formatting of a config file in its own format, for `gateway fmt`. JSON: two-space indentation,
// keys in the order written, one trailing newline. YAML: two-space indentation, list items indented under
// their key, no line folding, one space inside flow braces; comments, blank lines, anchors, the quoting of
// each scalar and each collection's block or flow style are kept (turning flow into block would move
// trailing comments). Key order is never changed. The result is checked to hold the same values as the
// input (else ConfigError: nothing is written), and formatting it again changes nothing.
import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'yaml';
import { ConfigError } from './config-error.ts';
import { type ConfigFormat, parseConfigText, parseYaml } from './read-config-file.ts';

const YAML_OUTPUT = { indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0, flowCollectionPadding: true } as const;
/** The yaml library may place an end-of-collection comment differently on a second pass; it settles after. */
const MAX_PASSES = 3;

/** `text` formatted; ConfigError(path, …) when it does not parse. Validity is not checked: a file with an
 * unknown key is formatted all the same. */
export function formatConfigText(text: string, format: ConfigFormat, path: string): string {
  const value = parseConfigText(text, format, path);
  let formatted = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : formatYamlDocument(parseYaml(formatted, path));
    if (next === formatted) break;
    formatted = next;
  }
  if (!isDeepStrictEqual(parseConfigText(formatted, format, path), value)) {
    throw new ConfigError(path, 'cannot be formatted without changing a value (a number JSON cannot hold?); left as it is');
  }
  return formatted;
}

/** The document as canonical YAML text; a document with neither content nor comments is empty. */
export function formatYamlDocument(doc: Document): string {
  const empty = doc.contents === null && !doc.comment && !doc.commentBefore;
  return empty ? '' : doc.toString(YAML_OUTPUT);
}

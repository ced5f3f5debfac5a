// Reads and parses the config file: the format by extension (`.json` → JSON, anything else → YAML), a size
// bound, UTF-8 only, one document. Every failure is a ConfigError naming the file and the read or parse error
// (with line and column). Shape checks come after (schema-check.ts, normalize-config.ts).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';
import { type JSONPath, type ParseError, parse as parseJsonc, printParseErrorCode, visit } from 'jsonc-parser';
import { type Document, parseDocument } from 'yaml';
import { ConfigError } from './config-error.ts';
import { formatKeyPath } from './key-path.ts';

export type ConfigFormat = 'yaml' | 'json';

/** A config file larger than this is refused before parsing (a real config is a few kB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** YAML aliases expanded at most (guards against alias bombs). */
const MAX_YAML_ALIASES = 100;

export function configFormat(path: string): ConfigFormat {
  return extname(path).toLowerCase() === '.json' ? 'json' : 'yaml';
}

/** The file's text (a leading byte order mark dropped), or ConfigError(path, …). */
export function readConfigText(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readBounded(path);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(path, `cannot read the config file: ${describeFsError(error)}`, { cause: error });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ConfigError(path, 'the config file is not valid UTF-8 text', { cause: error });
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The plain value the text holds (objects, arrays, scalars), or ConfigError(path, …). */
export function parseConfigText(text: string, format: ConfigFormat, path: string): unknown {
  return format === 'json' ? parseJson(text, path) : yamlToValue(parseYaml(text, path), path);
}

/** The YAML document with its comments (fmt rewrites it), or ConfigError(path, …) when it does not parse. */
export function parseYaml(text: string, path: string): Document {
  const doc = parseDocument(text, { merge: true, prettyErrors: true, uniqueKeys: true });
  const [first] = doc.errors;
  if (first !== undefined) throw new ConfigError(path, `invalid YAML: ${firstLine(first.message)}`, { cause: first });
  return doc;
}

export function yamlToValue(doc: Document, path: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new ConfigError(path, `invalid YAML: ${firstLine((error as Error).message)}`, { cause: error });
  }
}

function parseJson(text: string, path: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(path, `invalid JSON: ${locateJsonError(text) ?? (error as Error).message}`, { cause: error });
  }
  // JSON.parse keeps the last of two equal keys without a word; a config that says a thing twice is refused.
  const duplicate = findDuplicateJsonKey(text);
  if (duplicate !== undefined) throw new ConfigError(duplicate, 'duplicate key');
  return value;
}

function locateJsonError(text: string): string | undefined {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (first === undefined) return undefined;
  const { line, column } = lineAndColumn(text, first.offset);
  return `${printParseErrorCode(first.error)} at line ${line}, column ${column}`;
}

/** The key path of the first key repeated in the same object, if any. */
function findDuplicateJsonKey(text: string): string | undefined {
  const seen: Set<string>[] = [];
  let found: string | undefined;
  visit(text, {
    onObjectBegin: () => {
      seen.push(new Set());
    },
    onObjectEnd: () => {
      seen.pop();
    },
    onObjectProperty: (property: string, _offset, _length, _line, _column, pathSupplier: () => JSONPath) => {
      const keys = seen.at(-1);
      if (keys === undefined || found !== undefined) return;
      if (keys.has(property)) found = formatKeyPath([...pathSupplier(), property]);
      keys.add(property);
    },
  });
  return found;
}

function readBounded(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).isDirectory()) throw new ConfigError(path, 'cannot read the config file: it is a directory');
    // Read one byte past the bound so a file that grows while read is still caught.
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > MAX_CONFIG_BYTES) {
        throw new ConfigError(path, `the config file is larger than ${MAX_CONFIG_BYTES} bytes (1 MiB)`);
      }
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function describeFsError(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  switch (code) {
    case 'ENOENT':
      return 'no such file (ENOENT)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EISDIR':
      return 'it is a directory (EISDIR)';
    default:
      return code === undefined ? String(message) : `${firstLine(message)}`;
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/:\s*$/, '');
}

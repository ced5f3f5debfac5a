// A target description: a small JSON file (comments and trailing commas allowed) saying what a target offers beyond what the suite can ask it
// (for example which model keys exist). `capabilities` are added to the target's, `env` to its environment,
// `aliasCommand` names its short alias command (and adds the `alias` capability); the whole is handed to the
// suite as `description`. Each suite declares its keys, with what each means, in
// conformance/<surface>/description.schema.json (the runner's own keys in description-common.schema.json):
// a description is checked against it when read, so a misspelt or misplaced key is named, not ignored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import { PROJECT_ROOT } from './project-root.ts';
import type { TargetSpec } from './run-env.ts';

/** The schema of the runner's own keys, which every suite's schema refers to. */
export const COMMON_SCHEMA = join(PROJECT_ROOT, 'conformance', 'harness', 'description-common.schema.json');

/** The file of the schema of `surface`'s descriptions. */
export function descriptionSchemaFile(surface: string): string {
  return join(PROJECT_ROOT, 'conformance', surface, 'description.schema.json');
}

const validators = new Map<string, ValidateFunction>();

/** The compiled schema of `surface`'s descriptions (its common keys included), or the common keys alone
 * (others let through) for a suite that declares none of its own. */
function validatorOf(surface: string): ValidateFunction {
  let validate = validators.get(surface);
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    ajv.addSchema(JSON.parse(readFileSync(COMMON_SCHEMA, 'utf8')) as object);
    const file = descriptionSchemaFile(surface);
    const schema = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as object)
      : { $ref: 'description-common.schema.json' };
    validate = ajv.compile(schema);
    validators.set(surface, validate);
  }
  return validate;
}

/** One line for a schema error: where, and what is wrong (an unknown key by its name). */
function errorLine(e: ErrorObject): string {
  const at = e.instancePath || '(top level)';
  if (e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties') {
    const key = (e.params as { unevaluatedProperty?: string; additionalProperty?: string });
    return `${at}: unknown key "${key.unevaluatedProperty ?? key.additionalProperty}"`;
  }
  return `${at}: ${e.message ?? e.keyword}`;
}

/** JSON with comments: what `conform init` writes (each key commented) and what a user edits by hand. Trailing
 * commas are allowed too, so that uncommenting or deleting the last entry of an object never breaks the file. */
const JSONC = { disallowComments: false, allowTrailingComma: true, allowEmptyContent: false } as const;

/** The value of the JSON-with-comments `text`; a syntax error names its line and column (1-based). */
export function parseDescriptionText(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, JSONC);
  const first = errors[0];
  if (first) {
    const before = text.slice(0, first.offset).split('\n');
    const what = printParseErrorCode(first.error).replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
    throw new Error(`line ${before.length}, column ${before.at(-1)!.length + 1}: ${what}`);
  }
  return value;
}

/** The description in `file` (JSON, comments and trailing commas allowed), checked against the schema of
 * `surface`'s descriptions. */
export function readDescription(file: string, surface: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parseDescriptionText(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`target description ${file}: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`target description ${file}: expected a JSON object`);
  }
  const validate = validatorOf(surface);
  if (!validate(value)) {
    const schema = existsSync(descriptionSchemaFile(surface)) ? `conformance/${surface}/description.schema.json` : 'conformance/harness/description-common.schema.json';
    const lines = [...new Set((validate.errors ?? []).map(errorLine))];
    throw new Error(`target description ${file} does not follow ${schema} (the keys and what each means):\n  ${lines.join('\n  ')}`);
  }
  return value as Record<string, unknown>;
}

/** The target with the description's capabilities and facts added. */
export function describeTarget(target: TargetSpec, description: Record<string, unknown>): TargetSpec {
  const alias = description.aliasCommand as string | undefined;
  const extra = [...((description.capabilities as string[] | undefined) ?? []), ...(alias ? ['alias'] : [])];
  return {
    ...target,
    capabilities: [...new Set([...target.capabilities, ...extra])],
    ...(description.env ? { env: { ...target.env, ...(description.env as Record<string, string>) } } : {}),
    ...(alias ? { aliasCommand: alias } : {}),
    description,
  };
}

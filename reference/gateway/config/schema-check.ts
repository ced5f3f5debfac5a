// Validates the parsed file against gateway-config.schema.json (the schema editors use too) and turns the
// first ajv error into one ConfigError naming the key path and the reason in words. The check is ajv's
// standalone code for the schema (gen/, `npm run gen`): compiling the schema at each start cost more CPU than
// the rest of a start.
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ConfigError } from './config-error.ts';
import generatedValidator from './gen/schema-validator.ts';
import { formatKeyPath, type KeySegment, pointerSegments } from './key-path.ts';

/** Keys the schema declares only to refuse them, with the reason given. */
const REJECTED_KEYS: Record<string, string> = {
  versions: 'not supported: TLS versions are not configurable; remove tls.versions',
  ciphers: 'not supported: cipher suites are not configurable; remove tls.ciphers',
};

const validate = generatedValidator as ValidateFunction;

/** Throws ConfigError for the first schema violation; `filePath` names the top level itself. */
export function checkSchema(raw: unknown, filePath: string): void {
  if (validate(raw)) return;
  const errors = validate.errors ?? [];
  const [first] = errors;
  if (first === undefined) throw new ConfigError(filePath, 'does not match the configuration schema');
  const names = errors.find((e) => e.keyword === 'propertyNames' && e.instancePath === first.instancePath);
  const at = pointerSegments(first.instancePath, raw);
  if (names !== undefined && first !== names) {
    const key = String((names.params as { propertyName: string }).propertyName);
    throw new ConfigError(formatKeyPath([...at, key]), `key ${describe(first)}`);
  }
  const [segments, reason] = locate(first, at);
  throw new ConfigError(segments.length === 0 ? filePath : formatKeyPath(segments), reason);
}

/** The key path the error is about (a missing or unknown key is named itself) and the reason. */
function locate(error: ErrorObject, at: KeySegment[]): [KeySegment[], string] {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      // `site:` for `sites:` is better told as the misspelt key than as the missing one.
      const known = (error.parentSchema as { properties?: object } | undefined)?.properties ?? {};
      const misspelt = Object.keys(error.data ?? {}).find((key) => !(key in known) && suggestion(key, [missing]) === missing);
      if (misspelt !== undefined) return [[...at, misspelt], `unknown key (did you mean "${missing}"?)`];
      return [[...at, missing], 'is required'];
    }
    case 'dependentRequired':
      return [[...at, String(params.missingProperty)], `is required when ${String(params.property)} is set`];
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const near = suggestion(key, known);
      return [[...at, key], near === undefined ? 'unknown key' : `unknown key (did you mean "${near}"?)`];
    }
    default:
      return [at, describe(error)];
  }
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const got = ` (got ${show(error.data)})`;
  switch (error.keyword) {
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `must be ${types.map(article).join(' or ')}${got}`;
    }
    case 'enum':
      return `must be one of ${(error.schema as unknown[]).map((v) => String(v)).join(', ')}${got}`;
    case 'minimum':
      return `must be at least ${String(params.limit)}${got}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}${got}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minItems':
      return `must hold at least ${String(params.limit)} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `must hold at most ${String(params.limit)} items (got ${countOf(error.data)})`;
    case 'maxProperties':
      return `must hold at most ${String(params.limit)} keys (got ${countOf(error.data)})`;
    case 'pattern': {
      const reason = (error.parentSchema as { 'x-reason'?: string } | undefined)?.['x-reason'];
      return `${reason ?? `must match ${String(params.pattern)}`}${got}`;
    }
    case 'not': {
      const key = error.instancePath.split('/').at(-1) ?? '';
      return REJECTED_KEYS[key] ?? 'is not allowed';
    }
    default:
      return error.message ?? `fails the schema's ${error.keyword} rule`;
  }
}

function article(type: string): string {
  switch (type) {
    case 'object':
      return 'an object (a mapping of keys)';
    case 'array':
      return 'a list';
    case 'integer':
      return 'an integer';
    default:
      return `a ${type}`;
  }
}

function show(value: unknown): string {
  if (value === undefined || value === null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function countOf(value: unknown): number {
  return Array.isArray(value) ? value.length : Object.keys(value ?? {}).length;
}

/** A known key that is probably what was meant: same letters in another case, or at most two edits away. */
function suggestion(key: string, known: string[]): string | undefined {
  const lower = key.toLowerCase();
  let best: [string, number] | undefined;
  for (const candidate of known) {
    if (candidate.startsWith('$')) continue;
    const distance = candidate.toLowerCase() === lower ? 0 : editDistance(lower, candidate.toLowerCase());
    if (distance <= Math.min(2, Math.ceil(key.length / 3)) && (best === undefined || distance < best[1])) best = [candidate, distance];
  }
  return best?.[0];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

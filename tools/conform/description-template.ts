// The text of a starting target description (`conform init`): JSON with comments, every key preceded by the
// `description` its schema gives it (conformance/<surface>/description.schema.json and the runner's own
// description-common.schema.json: one source of truth, so the file says what the runner checks). Keys a user
// most likely fills in are written in force, the others commented out with an example; `capabilities` comes
// last and in force, so that uncommenting any entry above it never leaves a comma missing or one too many.
// Each description appears once: a schema met again (a second array item, a map's next value) is written bare.

/** The part of JSON Schema the template reads. */
export interface SchemaNode {
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  additionalProperties?: boolean | SchemaNode;
  minimum?: number;
}

/** What goes into the file besides the schemas' texts. */
export interface TemplateInput {
  /** The surface's description schema and the common one. */
  schema: SchemaNode;
  common: SchemaNode;
  /** Comment paragraphs at the top (after the schema's title and description): wrapped, except a line
   * starting with two spaces (a command line), kept whole; '' an empty comment line. */
  header: string[];
  /** Keys written in force, with their values (in schema order; `capabilities` always, last). */
  present: Record<string, unknown>;
  /** Values of the keys written commented out; a key without one gets a value of its schema's type. */
  examples: Record<string, unknown>;
  /** Comment lines added under a key's description (e.g. the capabilities the reference declares). */
  notes: Record<string, string[]>;
}

/** Lines are wrapped to this width, indentation and comment marks included. */
export const WIDTH = 100;
const INDENT = '  ';

/** `text` as `//` comment lines at `indent`, wrapped at WIDTH (a word longer than a line stays whole). */
export function commentLines(text: string, indent: string, margin = 0): string[] {
  const room = Math.max(40, WIDTH - margin - indent.length - 3);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > room) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines.map((l) => (l ? `${indent}// ${l}` : `${indent}//`));
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `value` as JSON on one line, spaced as people write it. */
function compactJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(compactJson).join(', ')}]`;
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${compactJson(v)}`);
    return entries.length > 0 ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}

/** A value of `schema`'s type for a key written commented out without an example: its required keys filled. */
export function placeholder(schema: SchemaNode): unknown {
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k) => [k, placeholder(schema.properties?.[k] ?? {})]));
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      return '';
  }
}

class Writer {
  readonly #described = new Set<SchemaNode>();
  /** Columns taken before the lines being written (a commented-out block's `  // `). */
  margin = 0;

  /** Comment lines for `schema` at `indent`, once per schema in the file. */
  describe(schema: SchemaNode | undefined, indent: string, notes: string[] = []): string[] {
    if (!schema?.description || this.#described.has(schema)) return [];
    this.#described.add(schema);
    return [schema.description, ...notes].flatMap((text) => commentLines(text, indent, this.margin));
  }

  /** `"key": value` as lines at `indent` (the value after the key on the first line), described. */
  entry(key: string | undefined, value: unknown, schema: SchemaNode | undefined, indent: string, comma: boolean): string[] {
    const head = key === undefined ? indent : `${indent}${JSON.stringify(key)}: `;
    const lines = this.value(value, schema, indent, head);
    if (comma) lines[lines.length - 1] += ',';
    return lines;
  }

  /** `value` as lines, the first starting with `head`: objects the schema describes key by key, each key
   * with its description; anything else compact when it fits on the line, else indented. */
  value(value: unknown, schema: SchemaNode | undefined, indent: string, head: string): string[] {
    const inner = indent + INDENT;
    if (isPlainObject(value) && Object.keys(value).length > 0) {
      const properties = schema?.properties;
      const map = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      const keys = Object.keys(value);
      const childOf = (k: string): SchemaNode | undefined => properties?.[k] ?? map;
      // A map's values share one schema, whose own description stays unwritten (it would repeat per entry).
      const needsComments = keys.some((k) => (properties?.[k] ? this.#unseen(properties[k]) : this.#unseen(map, false)));
      const compact = `${head}${compactJson(value)}`;
      if (!needsComments && this.margin + compact.length <= WIDTH) return [compact];
      const lines = [`${head}{`];
      keys.forEach((k, i) => {
        const child = childOf(k);
        if (child !== map) lines.push(...this.describe(child, inner));
        lines.push(...this.entry(k, value[k], child, inner, i < keys.length - 1));
      });
      const others = Object.keys(properties ?? {}).filter((k) => !keys.includes(k));
      if (others.length > 0) lines.push(...commentLines(`Also: ${others.join(', ')} (see the schema).`, inner, this.margin));
      lines.push(`${indent}}`);
      return lines;
    }
    if (Array.isArray(value) && value.length > 0) {
      const compact = `${head}${compactJson(value)}`;
      if (!this.#unseen(schema?.items) && this.margin + compact.length <= WIDTH) return [compact];
      const lines = [`${head}[`];
      value.forEach((item, i) => {
        lines.push(...this.entry(undefined, item, schema?.items, inner, i < value.length - 1));
      });
      lines.push(`${indent}]`);
      return lines;
    }
    return [`${head}${JSON.stringify(value)}`];
  }

  /** Whether `schema` has descriptions not yet written at it (unless not `self`) or under it. */
  #unseen(schema: SchemaNode | undefined, self = true): boolean {
    if (!schema) return false;
    if (self && schema.description && !this.#described.has(schema)) return true;
    return Object.values(schema.properties ?? {}).some((p) => this.#unseen(p)) || this.#unseen(schema.items);
  }
}

/** The description file's text. */
export function descriptionTemplate(input: TemplateInput): string {
  const { schema, common, present, examples, notes } = input;
  const writer = new Writer();
  const own = Object.keys(schema.properties ?? {});
  const shared = Object.keys(common.properties ?? {}).filter((k) => k !== 'capabilities' && !own.includes(k));
  const order = ['$schema', ...own, ...shared.filter((k) => k !== '$schema'), 'capabilities'];
  const schemaOf = (key: string): SchemaNode => schema.properties?.[key] ?? common.properties?.[key] ?? {};
  const lines = [...(schema.title ? commentLines(schema.title, '') : []), ...commentLines(schema.description ?? '', ''), '//', ...input.header.flatMap((h) => (h.startsWith('  ') ? [`//${h}`] : h ? commentLines(h, '') : ['//'])), '{'];
  order.forEach((key, i) => {
    const last = i === order.length - 1;
    if (i > 0) lines.push('');
    lines.push(...writer.describe(schemaOf(key), INDENT, notes[key]));
    if (key in present) {
      lines.push(...writer.entry(key, present[key], schemaOf(key), INDENT, !last));
    } else {
      const example = key in examples ? examples[key] : placeholder(schemaOf(key));
      // Commented as a whole, at the key's indent: removing one `// ` from each line restores it.
      const mark = `${INDENT}// `;
      writer.margin = mark.length;
      lines.push(...writer.entry(key, example, schemaOf(key), '', true).map((l) => `${mark}${l}`));
      writer.margin = 0;
    }
  });
  lines.push('}', '');
  return lines.join('\n');
}

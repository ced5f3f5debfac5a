// The tool listing: the five documented tools are listed, each with the document's parameters as strings,
// exactly the documented ones required, get_capabilities requiring nothing; and (informational) the
// reference's choices: no tool and no parameter beyond the document's, descriptions, closed input schemas.
// A tool that is not listed leaves its own cases unable to judge (the listing case fails for it).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CaseContext } from '../harness/case-context.ts';
import { check } from '../harness/check.ts';
import { DOCUMENTED_TOOLS, documented } from './documented-tools.ts';
import { listing, STDIO } from './target.ts';

const sorted = (names: Iterable<string>): string[] => [...names].sort();

async function listed(c: CaseContext, name: string): Promise<Tool> {
  const tools = await c.need('listing the tools', listing(c));
  const tool = tools.find((x) => x.name === name);
  if (!tool) c.inconclusive(`tools/list has no ${name} (translate-tools/tools/five-listed judges that): ${tools.map((x) => x.name).join(', ')}`);
  return tool;
}

/** Whether a property's JSON Schema lets a string through: `type` string (or a type list holding it), or a
 * string branch of anyOf/oneOf. */
function isString(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const { type, anyOf, oneOf } = schema as { type?: unknown; anyOf?: unknown; oneOf?: unknown };
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return true;
  return [anyOf, oneOf].some((branches) => Array.isArray(branches) && branches.some(isString));
}

check('translate-tools/tools/five-listed/lists-the-five-tools', STDIO, async (t, c) => {
  const names = (await c.need('listing the tools', listing(c))).map((x) => x.name);
  t.deepEqual(
    DOCUMENTED_TOOLS.map((d) => d.name).filter((name) => !names.includes(name)),
    [],
    `documented tools not listed; listed: ${names.join(', ')}`,
  );
});

// ---------------------------------------------------------------- each tool's parameters and required ones
for (const doc of DOCUMENTED_TOOLS.filter((d) => d.name !== 'get_capabilities')) {
  const all = [...doc.required, ...doc.optional];
  check(`translate-tools/${doc.area}/parameters/documented-parameters-are-strings`, STDIO, async (t, c) => {
    const tool = await listed(c, doc.name);
    t.is(tool.inputSchema.type, 'object');
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, unknown>;
    t.deepEqual(
      all.filter((name) => !isString(properties[name])),
      [],
      `documented parameters missing or not strings: ${JSON.stringify(properties)}`,
    );
  });
}

for (const doc of DOCUMENTED_TOOLS.filter((d) => d.required.length > 0)) {
  // The parameters clause of detect_language and transcribe_audio names the required one; the other tools
  // have a clause of their own for it. A further parameter may be offered, as an optional one only: a
  // call with the documented parameters is complete.
  const clause = doc.name === 'translate_text' || doc.name === 'translate_localization' ? 'required' : 'parameters';
  check(`translate-tools/${doc.area}/${clause}/exactly-${doc.required.join('-and-').replace(/_/g, '-')}-required`, STDIO, async (t, c) => {
    const tool = await listed(c, doc.name);
    t.deepEqual(sorted(tool.inputSchema.required ?? []), sorted(doc.required), `optional: ${doc.optional.join(', ')}`);
  });
}

check('translate-tools/get-capabilities/no-parameters/nothing-required', STDIO, async (t, c) => {
  const tool = await listed(c, documented('get_capabilities').name);
  t.is(tool.inputSchema.type, 'object');
  t.deepEqual(tool.inputSchema.required ?? [], [], 'required');
});

// ---------------------------------------------------------------- only the documented (informational)
check('translate-tools/tools/exactly-five/no-other-tools', STDIO, async (t, c) => {
  const names = (await c.need('listing the tools', listing(c))).map((x) => x.name);
  t.deepEqual(sorted(names), sorted(DOCUMENTED_TOOLS.map((d) => d.name)));
});

check('translate-tools/tools/extra-parameters/only-the-documented-parameters', STDIO, async (t, c) => {
  const tools = await c.need('listing the tools', listing(c));
  const extra = DOCUMENTED_TOOLS.flatMap((doc) => {
    const tool = tools.find((x) => x.name === doc.name);
    const all = [...doc.required, ...doc.optional];
    return Object.keys(tool?.inputSchema.properties ?? {})
      .filter((name) => !all.includes(name))
      .map((name) => `${doc.name}.${name}`);
  });
  t.deepEqual(extra, [], 'parameters beyond the document');
});

// ---------------------------------------------------------------- descriptions (informational)
check('translate-tools/tools/descriptions/every-tool-and-parameter-described', STDIO, async (t, c) => {
  const missing: string[] = [];
  for (const tool of await c.need('listing the tools', listing(c))) {
    if (!tool.description?.trim()) missing.push(tool.name);
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
    for (const [name, schema] of Object.entries(properties)) {
      if (typeof schema.description !== 'string' || schema.description.trim() === '') missing.push(`${tool.name}.${name}`);
    }
  }
  t.deepEqual(missing, [], 'without a description');
});

check('translate-tools/tools/descriptions/input-schemas-closed', STDIO, async (t, c) => {
  const tools = await c.need('listing the tools', listing(c));
  t.deepEqual(
    tools.filter((tool) => tool.inputSchema.additionalProperties !== false).map((tool) => tool.name),
    [],
    'input schemas without additionalProperties: false',
  );
});

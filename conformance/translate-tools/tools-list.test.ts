// The tool listing: exactly the five documented tools, each tool's parameters exactly as the document's table
// gives them (names, string type, which are required), get_capabilities without parameters; and
// (informational) the reference's descriptions and closed input schemas.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionContext } from 'ava';
import { check } from '../harness/check.ts';
import { DOCUMENTED_TOOLS, documented } from './documented-tools.ts';
import { listing, STDIO } from './target.ts';

const sorted = (names: Iterable<string>): string[] => [...names].sort();

function find(t: ExecutionContext, tools: Tool[], name: string): Tool {
  const tool = tools.find((x) => x.name === name);
  t.truthy(tool, `tools/list has no ${name}: ${tools.map((x) => x.name).join(', ')}`);
  return tool ?? { name, inputSchema: { type: 'object' } };
}

/** Property name → its JSON Schema `type` (a one-element type array counts as the type). */
function propertyTypes(tool: Tool): Record<string, unknown> {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => [name, Array.isArray(schema.type) && schema.type.length === 1 ? schema.type[0] : schema.type]),
  );
}

check('translate-tools/tools/exactly-five/lists-the-five-tools', STDIO, async (t, c) => {
  const tools = await listing(c);
  t.deepEqual(sorted(tools.map((x) => x.name)), sorted(DOCUMENTED_TOOLS.map((d) => d.name)));
});

// ---------------------------------------------------------------- each tool's parameters and required ones
for (const doc of DOCUMENTED_TOOLS.filter((d) => d.name !== 'get_capabilities')) {
  const all = [...doc.required, ...doc.optional];
  check(`translate-tools/${doc.area}/parameters/exactly-the-documented-strings`, STDIO, async (t, c) => {
    const tool = find(t, await listing(c), doc.name);
    t.is(tool.inputSchema.type, 'object');
    t.deepEqual(propertyTypes(tool), Object.fromEntries(sorted(all).map((name) => [name, 'string'])));
  });
}

for (const doc of DOCUMENTED_TOOLS.filter((d) => d.required.length > 0)) {
  // The parameters clause of detect_language and transcribe_audio names the required one; the other tools
  // have a clause of their own for it.
  const clause = doc.name === 'translate_text' || doc.name === 'translate_localization' ? 'required' : 'parameters';
  check(`translate-tools/${doc.area}/${clause}/exactly-${doc.required.join('-and-').replace(/_/g, '-')}-required`, STDIO, async (t, c) => {
    const tool = find(t, await listing(c), doc.name);
    t.deepEqual(sorted(tool.inputSchema.required ?? []), sorted(doc.required), `optional: ${doc.optional.join(', ')}`);
  });
}

check('translate-tools/get-capabilities/no-parameters/no-properties-nothing-required', STDIO, async (t, c) => {
  const tool = find(t, await listing(c), documented('get_capabilities').name);
  t.is(tool.inputSchema.type, 'object');
  t.deepEqual(Object.keys(tool.inputSchema.properties ?? {}), [], 'declared properties');
  t.deepEqual(tool.inputSchema.required ?? [], [], 'required');
});

// ---------------------------------------------------------------- descriptions (informational)
check('translate-tools/tools/descriptions/every-tool-and-parameter-described', STDIO, async (t, c) => {
  const missing: string[] = [];
  for (const tool of await listing(c)) {
    if (!tool.description?.trim()) missing.push(tool.name);
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
    for (const [name, schema] of Object.entries(properties)) {
      if (typeof schema.description !== 'string' || schema.description.trim() === '') missing.push(`${tool.name}.${name}`);
    }
  }
  t.deepEqual(missing, [], 'without a description');
});

check('translate-tools/tools/descriptions/input-schemas-closed', STDIO, async (t, c) => {
  const tools = await listing(c);
  t.deepEqual(
    tools.filter((tool) => tool.inputSchema.additionalProperties !== false).map((tool) => tool.name),
    [],
    'input schemas without additionalProperties: false',
  );
});

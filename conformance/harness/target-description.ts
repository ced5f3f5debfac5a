// A target description: a small JSON file saying what a target offers beyond what the suite can ask it
// (for example which model keys exist). `capabilities` are added to the target's; the rest is handed to
// the suite as `description`.
import { readFileSync } from 'node:fs';
import type { TargetSpec } from './run-env.ts';

export function readDescription(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`target description ${file}: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`target description ${file}: expected a JSON object`);
  }
  const { capabilities } = value as { capabilities?: unknown };
  if (capabilities !== undefined && (!Array.isArray(capabilities) || capabilities.some((c) => typeof c !== 'string'))) {
    throw new Error(`target description ${file}: "capabilities" must be an array of strings`);
  }
  return value as Record<string, unknown>;
}

/** The target with the description's capabilities and facts added. */
export function describeTarget(target: TargetSpec, description: Record<string, unknown>): TargetSpec {
  const extra = (description.capabilities as string[] | undefined) ?? [];
  return { ...target, capabilities: [...new Set([...target.capabilities, ...extra])], description };
}

// A target description: a small JSON file saying what a target offers beyond what the suite can ask it
// (for example which model keys exist). `capabilities` are added to the target's, `env` to its environment,
// `aliasCommand` names its short alias command (and adds the `alias` capability); the whole is handed to the
// suite as `description`.
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
  const { env, aliasCommand } = value as { env?: unknown; aliasCommand?: unknown };
  if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env) || Object.values(env).some((v) => typeof v !== 'string'))) {
    throw new Error(`target description ${file}: "env" must be an object of strings`);
  }
  if (aliasCommand !== undefined && (typeof aliasCommand !== 'string' || aliasCommand.trim() === '')) {
    throw new Error(`target description ${file}: "aliasCommand" must be a command string`);
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

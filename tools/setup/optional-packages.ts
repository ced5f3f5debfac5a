// The package's optional npm dependencies (package.json optionalDependencies) this install lacks: npm drops
// one whose install script fails or is not allowed (onnxruntime-node's fetches a GPU provider from outside
// the registry). Named at the end of a run with the one line that adds each, as the Debian packages are.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';

/** What each optional package gives, for the line that names it missing. */
const GIVES: Record<string, string> = {
  'onnxruntime-node': "the translation service's ONNX models and Piper voices (without it the translate reference runs with neither)",
};

export interface MissingNpmPackage {
  name: string;
  version: string;
  gives: string;
}

/** The optional dependencies of the package at `root` that Node cannot resolve from there. */
export function missingOptionalPackages(root = PROJECT_ROOT): MissingNpmPackage[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { optionalDependencies?: Record<string, string> };
  const require = createRequire(join(root, 'package.json'));
  return Object.entries(pkg.optionalDependencies ?? {}).flatMap(([name, version]) => {
    try {
      require.resolve(name);
      return [];
    } catch {
      return [{ name, version, gives: GIVES[name] ?? 'an optional part' }];
    }
  });
}

/** One line per missing package: what it gives, and the command that adds it. */
export function optionalMissingLines(missing: MissingNpmPackage[]): string[] {
  return missing.map((p) => `missing npm package ${p.name} (optional): ${p.gives}; add it with: npm install ${p.name}@${p.version} --ignore-scripts`);
}

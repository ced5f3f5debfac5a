// The Debian packages each benchmark runs (by name, from tools/setup/debian-packages.json, which says how each
// is found). The set-up step installs them; this check is for a run without it (--skip-setup) or a machine
// where it could not: a selected benchmark whose tool is missing stops the run, before any benchmark starts,
// with one line naming the tool and the command that installs it.
import { debianPackages, type DebianPackage, installCommand, isPresent } from '../setup/debian-packages.ts';

const HTTP_LOAD = ['wrk'];
const APERTIUM = ['apertium', 'apertium-eng-spa'];
const SPEECH = ['espeak-ng', 'pocketsphinx', 'pocketsphinx-en-us', 'sox'];

/** By benchmark: the packages it cannot run without. The others run on Node and npm packages alone
 * (whole-run and static-suite-slow run suites, whose cases say what their targets lack). */
export const NEEDS: Record<string, string[]> = {
  'small-file': [...HTTP_LOAD, 'nginx'],
  proxy: [...HTTP_LOAD, 'nginx'],
  'gateway-proxy': [...HTTP_LOAD, 'nginx'],
  'gateway-workers': HTTP_LOAD,
  'apertium-throughput': APERTIUM,
  'speech-rtf': SPEECH,
};

/** A benchmark's tool is missing: `message` is the one line to print. */
export class MissingTool extends Error {}

/** What the package's probe looked for, as a user would check it. */
function sought({ probe }: DebianPackage): string {
  const where = [probe.command && `no ${probe.command} on PATH`, probe.file && `no ${probe.file}`, probe.env && `${probe.env} unset`];
  return where.filter(Boolean).join(', ');
}

/** Throws MissingTool naming the first selected benchmark whose packages are not all present. */
export function checkTools(benchmarks: Iterable<string>): void {
  const known = new Map(debianPackages().map((p) => [p.name, p]));
  for (const benchmark of benchmarks) {
    const missing = (NEEDS[benchmark] ?? []).map((name) => known.get(name)!).filter((p) => !isPresent(p));
    if (missing.length === 0) continue;
    const names = missing.map((p) => p.name);
    throw new MissingTool(
      `bench: ${benchmark} needs ${missing.map((p) => `${p.name} (${sought(p)})`).join(', ')} — install ${names.length === 1 ? 'it' : 'them'} with: ${installCommand(names)}`,
    );
  }
}

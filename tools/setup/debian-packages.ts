// The Debian packages of debian-packages.json: which are missing on this machine, whether this process can
// install them (apt-get, as root or with password-less sudo), and the one command that installs them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../conformance/harness/project-root.ts';
import { onPath } from '../../reference/shared/on-path.ts';

export interface DebianPackage {
  name: string;
  /** Present when the command is on PATH (or the variable `env` names an existing file), or the file exists. */
  probe: { command?: string; file?: string; env?: string };
  /** What the package is for, as said to a user who lacks it. */
  for: string;
  /** Only the project's tests use it (not the reference servers or the suites). */
  testsOnly?: boolean;
  /** Only the benchmarks use it: the set-up step checks it for `npm run bench` alone. */
  benchOnly?: boolean;
}

/** What the set-up step prepares for: `npm start`, `npm test` or `npm run bench`. */
export const PURPOSES = ['start', 'test', 'bench'] as const;
export type Purpose = (typeof PURPOSES)[number];

const LIST = join(PROJECT_ROOT, 'tools', 'setup', 'debian-packages.json');

export function debianPackages(): DebianPackage[] {
  return (JSON.parse(readFileSync(LIST, 'utf8')) as { packages: DebianPackage[] }).packages;
}

export function isPresent({ probe }: DebianPackage): boolean {
  if (probe.env && process.env[probe.env] && existsSync(process.env[probe.env]!)) return true;
  if (probe.command !== undefined && onPath(probe.command)) return true;
  return probe.file !== undefined && existsSync(probe.file);
}

/** The packages `purpose` needs: the benchmarks use every one (whole-run runs every suite, the translate
 * benchmarks the engines and sox); `npm start` and `npm test` all but the benchmarks' own. */
export function packagesFor(purpose: Purpose): DebianPackage[] {
  return debianPackages().filter((p) => purpose === 'bench' || !p.benchOnly);
}

export function missingPackages(purpose: Purpose = 'start'): DebianPackage[] {
  return packagesFor(purpose).filter((p) => !isPresent(p));
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** The command a user runs to install `names` (with sudo unless this process is root). */
export function installCommand(names: string[]): string {
  return `${isRoot() ? '' : 'sudo '}apt-get install -y ${names.join(' ')}`;
}

/** One line: what is missing and the command that installs it. */
export function missingLine(missing: DebianPackage[]): string {
  const names = missing.map((p) => p.name);
  return `missing Debian packages: ${names.join(', ')} — install them with: ${installCommand(names)}`;
}

/** How this process would run apt-get as root (`[]` when it is root, `['sudo', '-n']`), or why it cannot. */
export function installer(): { prefix: string[] } | { reason: string } {
  if (!onPath('apt-get')) return { reason: 'no apt-get on this machine' };
  if (isRoot()) return { prefix: [] };
  if (onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0) return { prefix: ['sudo', '-n'] };
  return { reason: 'not root and no password-less sudo' };
}

/** Runs apt-get update and install for `names`; its output is returned for a failure to show. */
export function install(prefix: string[], names: string[]): { ok: boolean; output: string } {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let output = '';
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', ...names]]) {
    const [command, ...rest] = [...prefix, 'apt-get', ...args];
    const run = spawnSync(command!, rest, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    output += `${run.stdout ?? ''}${run.stderr ?? ''}`;
    if (run.status !== 0) return { ok: false, output: output || String(run.error ?? `apt-get exited ${run.status}`) };
  }
  return { ok: true, output };
}

// Running the target's CLI command (its description's `cli`) for a case: in a folder of its own (or the
// gateway's), with arguments and environment, waiting for it to end.
import type { CaseContext, FileContent } from '../harness/index.ts';
import type { Gateway } from './gateway.ts';
import { description } from './target.ts';
import { within } from '../harness/within.ts';

export interface CliRun {
  /** null: it did not end within the wait (stderr says so on its first line). */
  code: number | null;
  stdout: string;
  stderr: string;
  dir: string;
}

export interface CliOptions {
  files?: Record<string, FileContent>;
  env?: Record<string, string | undefined>;
  /** Run in this folder (kept), for example the gateway's. */
  dir?: string;
  stdin?: string;
  waitMs?: number;
}

const WAIT_MS = 20_000;

export async function runCli(c: CaseContext, args: string[], options: CliOptions = {}): Promise<CliRun> {
  if (!description.cli) c.inconclusive('the target description names no `cli` command');
  const launched = await c.launch(
    {
      files: options.files ?? {},
      env: { GATEWAY_ADMIN: undefined, GATEWAY_ADMIN_TOKEN: undefined, ...options.env },
      args,
      wait: 'exit',
      ...(options.dir ? { dir: options.dir } : {}),
      ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    },
    description.cli,
  );
  const waitMs = options.waitMs ?? WAIT_MS;
  const ended = await within(launched.exited, waitMs, 'timeout' as const);
  if (ended === 'timeout') {
    launched.kill('SIGKILL');
    return { code: null, stdout: launched.stdout(), stderr: `(still running after ${waitMs} ms)\n${launched.stderr()}`, dir: launched.dir };
  }
  return { code: ended.code, stdout: launched.stdout(), stderr: launched.stderr(), dir: launched.dir };
}

/** A shortcut command against the gateway's admin server: `--admin` and GATEWAY_ADMIN_TOKEN from its setup. */
export function runShortcut(c: CaseContext, g: Gateway, args: string[], options: CliOptions = {}): Promise<CliRun> {
  return runCli(c, [...args, '--admin', g.admin.address], {
    ...options,
    env: { ...(g.admin.token ? { GATEWAY_ADMIN_TOKEN: g.admin.token } : {}), ...options.env },
  });
}

export const output = (run: CliRun): string => `exit ${run.code}\n--- stdout ---\n${run.stdout.slice(0, 1500)}\n--- stderr ---\n${run.stderr.slice(0, 1500)}`;

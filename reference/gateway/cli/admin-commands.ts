// The CLI shortcuts of the admin API (document 001, Command-line shortcuts; catalog gateway/cli/*): each
// command is one admin call. Output and exit codes (catalog gateway/cli/output-and-exit-codes): the answer
// as pretty JSON on stdout (the `status --upstream` table instead) and 0; a non-2xx answer
// `error: <status> <message>` on stderr and 1; an unreachable address `error:` naming it and 1; a bad
// command line throws UsageError (one line on stderr, 2).
import { parseCommandLine } from '../../shared/command-line.ts';
import { type AdminAnswer, adminClient, TOKEN_ENV, UnreachableError, UsageError } from './admin-client.ts';
import { upstreamTable } from './status-table.ts';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

export const ADMIN_COMMANDS = ['reload', 'status', 'shutdown', 'upstreams'] as const;
export type AdminCommand = (typeof ADMIN_COMMANDS)[number];

export const ADMIN_USAGE = `Admin API commands (address: --admin ADDR, else $GATEWAY_ADMIN, else 127.0.0.1:2019;
ADDR is host:port or http://host:port; token: $GATEWAY_ADMIN_TOKEN, sent as a bearer token):
  reload                                   POST /reload
  status [--upstream]                      GET /status, or GET /upstreams printed as a table
  shutdown                                 POST /shutdown
  upstreams                                GET /upstreams
  upstreams add --route PATH --target URL [--weight N] [--site LABEL]
  upstreams remove --route PATH --target URL [--site LABEL]
  upstreams weight --route PATH --target URL --weight N [--site LABEL]
`;

const UPSTREAM_ACTIONS = ['add', 'remove', 'weight'] as const;
type UpstreamAction = (typeof UPSTREAM_ACTIONS)[number];

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: object;
  print: (json: unknown) => string;
}

const pretty = (json: unknown) => `${JSON.stringify(json, null, 2)}\n`;

function printTable(json: unknown): string {
  const upstreams = (json as { upstreams?: unknown } | undefined)?.upstreams;
  if (!Array.isArray(upstreams)) throw new Error('the answer of GET /upstreams has no `upstreams` array');
  return upstreamTable(upstreams as Record<string, unknown>[]);
}

function parse(command: AdminCommand, args: string[]) {
  try {
    return parseCommandLine({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        admin: { type: 'string' },
        upstream: { type: 'boolean' },
        route: { type: 'string' },
        target: { type: 'string' },
        weight: { type: 'string' },
        site: { type: 'string' },
      },
    });
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
}

type Values = ReturnType<typeof parse>['values'];

/** Flags a command does not take are usage errors, not ignored. */
function refuse(values: Values, allowed: readonly string[], what: string): void {
  const extra = Object.keys(values).filter((flag) => flag !== 'admin' && !allowed.includes(flag));
  if (extra.length > 0) throw new UsageError(`${what} does not take --${extra[0]}`);
}

function upstreamsCall(action: UpstreamAction, values: Values): Call {
  const what = `upstreams ${action}`;
  refuse(values, action === 'remove' ? ['route', 'target', 'site'] : ['route', 'target', 'weight', 'site'], what);
  const needed = action === 'weight' ? ['route', 'target', 'weight'] : ['route', 'target'];
  for (const flag of needed) {
    if (values[flag as keyof Values] === undefined) throw new UsageError(`${what} needs --${flag}`);
  }
  const body: Record<string, unknown> = { route: values.route, target: values.target };
  if (values.weight !== undefined) {
    if (!/^-?[0-9]+$/.test(values.weight)) throw new UsageError(`--weight must be an integer, got "${values.weight}"`);
    body['weight'] = Number(values.weight);
  }
  if (values.site !== undefined) body['site'] = values.site;
  return { method: 'POST', path: `/upstreams/${action}`, body, print: pretty };
}

function callOf(command: AdminCommand, values: Values, positionals: string[]): Call {
  const [action, ...rest] = positionals;
  if (command === 'upstreams' && UPSTREAM_ACTIONS.includes(action as UpstreamAction) && rest.length === 0) {
    return upstreamsCall(action as UpstreamAction, values);
  }
  if (positionals.length > 0) throw new UsageError(`${command}: unexpected argument "${positionals[0]}"`);
  switch (command) {
    case 'reload':
      refuse(values, [], command);
      return { method: 'POST', path: '/reload', print: pretty };
    case 'shutdown':
      refuse(values, [], command);
      return { method: 'POST', path: '/shutdown', print: pretty };
    case 'status':
      refuse(values, ['upstream'], command);
      return values.upstream ? { method: 'GET', path: '/upstreams', print: printTable } : { method: 'GET', path: '/status', print: pretty };
    case 'upstreams':
      refuse(values, [], command);
      return { method: 'GET', path: '/upstreams', print: pretty };
  }
}

function errorLine(answer: AdminAnswer, hasToken: boolean): string {
  const message = (answer.json as { message?: unknown } | undefined)?.message;
  const text = typeof message === 'string' ? message : answer.text.trim().slice(0, 200) || 'no message';
  const hint = answer.status !== 401 ? '' : hasToken ? ` (${TOKEN_ENV} does not hold the admin token)` : ` (set ${TOKEN_ENV} to the admin token)`;
  return `error: ${answer.status} ${text}${hint}\n`;
}

/** Runs one admin command; returns the exit code (0 or 1). Throws UsageError for a bad command line. */
export async function runAdminCommand(command: AdminCommand, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(command, args);
  const call = callOf(command, values, positionals);
  const client = adminClient(values.admin, io.env);
  let answer: AdminAnswer;
  try {
    answer = await client.call(call.method, call.path, call.body);
  } catch (err) {
    if (!(err instanceof UnreachableError)) throw err;
    io.stderr(`error: ${err.message}\n`);
    return 1;
  }
  if (answer.status < 200 || answer.status > 299) {
    io.stderr(errorLine(answer, client.hasToken));
    return 1;
  }
  if (answer.json === undefined) {
    io.stdout(answer.text.endsWith('\n') || answer.text === '' ? answer.text : `${answer.text}\n`);
    return 0;
  }
  try {
    io.stdout(call.print(answer.json));
  } catch (err) {
    io.stderr(`error: ${(err as Error).message}\n`);
    return 1;
  }
  return 0;
}

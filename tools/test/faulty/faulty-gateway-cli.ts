// The commands of the faulty gateway other than `run`: the reference's command line (reference/gateway/main.ts),
// run on a command line and an environment the CLI faults have changed, with its version line and exit code
// changed where a fault says so.
import { faultsOf, type GatewayFault } from './faulty-gateway-faults.ts';

const faults = faultsOf(process.env);
const on = (f: GatewayFault): boolean => faults.has(f);

/** `args` without `flag` (and its value), written `--flag VALUE` or `--flag=VALUE`. */
function without(args: string[], ...flags: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (flags.includes(arg)) i++;
    else if (!flags.some((flag) => arg.startsWith(`${flag}=`))) out.push(arg);
  }
  return out;
}

/** The command line after the CLI faults. */
export function faultyArgs(argv: string[], env: NodeJS.ProcessEnv): string[] {
  let [command = '', ...args] = argv;
  const action = command === 'upstreams' ? args[0] : undefined;
  if (on('cli-reload-gets-status') && command === 'reload') command = 'status';
  else if (on('cli-shutdown-gets-status') && command === 'shutdown') command = 'status';
  else if (on('cli-upstreams-gets-status') && command === 'upstreams' && !['add', 'remove', 'weight'].includes(action ?? '')) command = 'status';
  else if (on('cli-status-gets-upstreams') && command === 'status' && !args.includes('--upstream')) command = 'upstreams';
  if (on('cli-table-status-only') && command === 'status') args = args.filter((a) => a !== '--upstream');
  if (on('cli-add-drops-weight') && action === 'add') args = without(args, '--weight');
  if (on('cli-remove-posts-add') && action === 'remove') args[0] = 'add';
  if (on('cli-weight-off-by-one') && action === 'weight') {
    const at = args.indexOf('--weight');
    if (at >= 0 && args[at + 1] !== undefined) args[at + 1] = String(Number(args[at + 1]) + 1);
  }
  if (on('cli-admin-flag-ignored')) args = without(args, '--admin');
  if (on('cli-admin-env-ignored')) delete env.GATEWAY_ADMIN;
  if (on('cli-default-port-2020') && !args.some((a) => a.startsWith('--admin')) && !env.GATEWAY_ADMIN) env.GATEWAY_ADMIN = '127.0.0.1:2020';
  if (on('cli-token-not-sent')) delete env.GATEWAY_ADMIN_TOKEN;
  if (on('validate-ignores-c') && ['validate', 'fmt', 'probe'].includes(command)) args = without(args, '-c', '--config');
  if (on('fmt-write-refused') && command === 'fmt') args = args.map((a) => (a === '--write' ? '--write-not-supported' : a));
  if (on('init-ignores-o') && command === 'init') args = without(args, '-o', '--output');
  return [command, ...args];
}

/** Runs the reference's command line on the faulty arguments. */
export async function runFaultyCli(argv: string[]): Promise<void> {
  const args = faultyArgs(argv, process.env);
  const command = args[0];
  if (on('version-two-parts') && (command === 'version' || command === '--version')) {
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
      write(String(chunk).replace(/^(\d+\.\d+)\.\d+/, '$1'), ...rest)) as typeof process.stdout.write;
  }
  if ((on('validate-invalid-exit-0') && command === 'validate') || (on('probe-exit-0') && command === 'probe')) {
    process.on('exit', () => {
      process.exitCode = 0;
    });
  }
  process.argv = [...process.argv.slice(0, 2), ...args];
  await import('../../../reference/gateway/main.ts');
}

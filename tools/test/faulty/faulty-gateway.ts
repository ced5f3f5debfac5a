// A deliberately faulty reverse-proxy gateway, for proving that the gateway suite can fail. It is the
// reference gateway (its modules, bundled by the project test into .cache/faulty/faulty-gateway.mjs) with
// each fault named in FAULTS (comma-separated, see faulty-gateway-faults.ts) injected where a real gateway
// would get it wrong: `run` in faulty-gateway-run.ts (config, admin server, runtime, process, data plane),
// every other command in faulty-gateway-cli.ts.
//
//   FAULTS=a,b node .cache/faulty/faulty-gateway.mjs run -c gateway.yaml      (or any `gateway` command)
import { UsageError } from '../../../reference/gateway/cli/admin-client.ts';
import { runFaultyCli } from './faulty-gateway-cli.ts';
import { runFaultyGateway } from './faulty-gateway-run.ts';

const [command, ...args] = process.argv.slice(2);
if (command === 'run' && !args.includes('--help') && !args.includes('-h')) {
  runFaultyGateway(args).then(
    (code) => {
      if (code !== undefined) process.exit(code);
    },
    (err: unknown) => {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(err instanceof UsageError ? 2 : 1);
    },
  );
} else await runFaultyCli(process.argv.slice(2));

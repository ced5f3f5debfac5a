// A permitted-variant reverse-proxy gateway, the twin of the faulty one (tools/test/faulty/faulty-gateway.ts): the
// reference gateway (its modules, bundled by the project test into .cache/variant/gateway/variant-gateway.mjs)
// with other choices wherever document 001 leaves room — always its own config key naming (rendered from the
// suite's neutral setup by variant-gateway-adapter.mjs), and the variants of VARIANTS=a,b,...
// (variant-gateway-variants.ts). `serve` (and `run` without own-cli) serves (variant-gateway-run.ts); every
// other command is its command line (variant-gateway-cli.ts). The suite must judge it conforming.
//
//   VARIANTS=a,b node .cache/variant/gateway/variant-gateway.mjs serve -c edge.yaml      (or any command)
import { runVariantCli } from './variant-gateway-cli.ts';
import { runVariantGateway } from './variant-gateway-run.ts';
import { GATEWAY_VARIANTS, variantsOf } from './variant-gateway-variants.ts';

const { on, unknown } = variantsOf(process.env);
if (unknown.length > 0) {
  process.stderr.write(`variant-gateway: unknown variant ${unknown.join(', ')}; known: ${Object.keys(GATEWAY_VARIANTS).join(', ')}\n`);
  process.exit(2);
}
const [command, ...args] = process.argv.slice(2);
const done = (code: number | undefined) => {
  if (code !== undefined) process.exitCode = code;
};
const failed = (err: unknown) => {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
};
if (command === 'serve' || (command === 'run' && !on('own-cli'))) runVariantGateway(args, on).then(done, failed);
else runVariantCli(process.argv.slice(2), on).then(done, failed);

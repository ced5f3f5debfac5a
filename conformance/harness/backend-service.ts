// The service a target needs beside it (TargetSpec.backend: the reference translation service behind the
// tool server and the web gateway), started once per test file and variant of its description, with a
// gRPC client per case; stopped when the test file ends.
import type { CaseContext } from './case-context.ts';
import { GrpcClient } from './grpc-client.ts';
import { launch, type Launched } from './launch.ts';
import { perFile } from './per-file.ts';
import type { TargetSpec } from './run-env.ts';

/** A variant of the backend, as its target description declares it. */
export interface BackendVariant {
  env?: Record<string, string>;
  args?: string[];
  command?: string;
  /** A fixed port the variant listens on (instead of `{port}`). */
  port?: number;
}

export interface Backend {
  /** host:port, the value for TRANSLATE_GRPC_URL. */
  url: string;
  /** A client of the same service, to call an RPC directly. */
  grpc: GrpcClient;
}

export type BackendOf = (c: CaseContext, variant?: string) => Promise<Backend>;

/** The backend starter of a test file for `target` (call once, at module level). */
export function backendServices(target: TargetSpec | undefined, surface: string): BackendOf {
  const shared = perFile<Launched>((launched) => launched.stop());
  const variants = (target?.backend?.description?.variants ?? {}) as Record<string, BackendVariant>;

  function start(variant: string | undefined): Promise<Launched> {
    const backend = target?.backend;
    if (!backend?.command) throw new Error(`${surface}: the target has no backend (conformance/reference-targets.json names it)`);
    const extra = variant === undefined ? {} : variants[variant];
    if (!extra) throw new Error(`${surface}: the backend's description has no variant ${variant}`);
    return launch(extra.command ?? backend.command, backend.env ?? {}, {
      env: extra.env ?? {},
      args: extra.args ?? [],
      ...(extra.port === undefined ? {} : { listen: [extra.port] }),
    });
  }

  return async (c, variant) => {
    if (variant !== undefined && variants[variant]?.port !== undefined) {
      // A variant on a fixed port is the case's own: the port is free again when the case ends (the case
      // holds it through fixed-port.ts).
      const launched = await start(variant);
      c.defer(() => launched.stop());
      return connect(c, launched, variants[variant]!.port!);
    }
    const launched = await shared(variant ?? '', () => start(variant));
    return connect(c, launched, launched.port);
  };
}

function connect(c: CaseContext, launched: Launched, port: number): Backend {
  c.note(`# translation service: ${launched.commandLine}`);
  const grpc = new GrpcClient(`127.0.0.1:${port}`, (line) => c.note(line));
  c.defer(() => grpc.close());
  return { url: `127.0.0.1:${port}`, grpc };
}

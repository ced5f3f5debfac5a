// For the reference's own tests: a real server from source with a configuration given in the environment,
// on a free loopback port (or `port`), and a client to it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { create, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { TranslateServiceClient } from './translate-client.ts';

const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));

export interface TestServer {
  port: number;
  client: TranslateServiceClient;
  /** What the server wrote to standard error so far. */
  stderr(): string;
  call<I extends DescMessage, O extends DescMessage>(method: { name: string; localName: string; input: I; output: O }, init: MessageInitShape<I>): Promise<MessageShape<O>>;
  stop(): void;
}

/** `translation`: the `Translation` section; `env`: more variables (ModelTtlMinutes, TRANSLATE_INSTANCE_ID). */
export async function startTestServer(translation: object, { port = 0, env = {} }: { port?: number; env?: Record<string, string> } = {}): Promise<TestServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', String(port)], {
    env: { ...process.env, TRANSLATE_BIND: '127.0.0.1', Translation: JSON.stringify(translation), AllowedModels: 'null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  let out = '';
  child.stdout!.setEncoding('utf8');
  while (!/listening on .*:\d+\n/.test(out)) {
    const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [''])])) as [string];
    if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
    out += chunk;
  }
  const bound = Number(/:(\d+)\n/.exec(out)![1]);
  const client = new TranslateServiceClient(`127.0.0.1:${bound}`);
  return {
    port: bound,
    client,
    stderr: () => stderr,
    call: (method, init) => client.call(method, create(method.input, init), {}, 30_000),
    stop: () => {
      client.close();
      child.kill();
    },
  };
}

// For the gateway's tests: a tiny TranslateService on grpc-js that answers every RPC with a fixed message
// after `delayMs` (or fails every call with the status `fail`), recording each call's deadline and whether it was cancelled.
import { create, type DescMessage } from '@bufbuild/protobuf';
import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { serviceDefinition } from '../translate/grpc/service-definition.ts';

export interface RecordedCall {
  method: string;
  /** ms from the call's arrival to its deadline; Infinity when it had none. */
  deadlineMs: number;
  cancelled: Promise<boolean>;
  request: unknown;
}

export interface FakeBackend {
  port: number;
  calls: RecordedCall[];
  delayMs: number;
  stop(): Promise<void>;
}

export async function startFakeBackend({ delayMs = 0, port = 0, fail }: { delayMs?: number; port?: number; fail?: { code: number; details: string } } = {}): Promise<FakeBackend> {
  const server = new Server({ 'grpc.max_receive_message_length': -1 });
  const backend: FakeBackend = { port: 0, calls: [], delayMs, stop: async () => {} };
  const implementation: UntypedServiceImplementation = {};
  for (const method of TranslateService.methods) {
    const output: DescMessage = method.output;
    implementation[method.localName] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const deadline = call.getDeadline();
      let answered = false;
      const cancelled = new Promise<boolean>((resolve) => {
        call.once('cancelled', () => resolve(!answered));
        const timer = setTimeout(() => {
          answered = true;
          resolve(false);
          if (fail) callback(fail, null);
          else callback(null, create(output, method.localName === 'translateText' ? { translatedText: 'slow answer' } : {}));
        }, backend.delayMs);
        call.once('cancelled', () => clearTimeout(timer));
      });
      backend.calls.push({ method: method.name, deadlineMs: Number(deadline) - Date.now(), cancelled, request: call.request });
    };
  }
  server.addService(serviceDefinition(TranslateService), implementation);
  backend.port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  backend.stop = async () => server.forceShutdown();
  return backend;
}

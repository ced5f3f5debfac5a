// The gRPC edge: TranslateService on grpc-js, plus server reflection and the standard health service so
// ordinary gRPC tools can list and call it without the .proto file.
import { create, type DescMessage, type MessageInitShape, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { type Metadata, Server, type ServerUnaryCall, type sendUnaryData, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation } from 'grpc-health-check';
import { file_vendor_translate_v1_translate, TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import type { CallContext } from '../core/call-context.ts';
import { REDIRECT_HEADER } from '../models/redirect-model.ts';
import { detectLanguage } from '../service/detect-language.ts';
import { getCapabilities } from '../service/get-capabilities.ts';
import type { ServiceDeps } from '../service/service-deps.ts';
import { synthesizeSpeech, transcribeAudio, translateAudio } from '../service/speech-rpcs.ts';
import { translateLocalization } from '../service/translate-localization.ts';
import { translateText } from '../service/translate-text.ts';
import { serviceDefinition } from './service-definition.ts';
import { toStatus } from './status-map.ts';

/** Above the 50 MB audio bound, so an oversize audio_data reaches the handler's clear refusal. */
export const MAX_RECEIVE_BYTES = 64 * 1024 * 1024;

type Handler = (deps: ServiceDeps, request: never, call: CallContext) => Promise<object>;

const HANDLERS: Record<string, Handler> = {
  translateText,
  translateLocalization,
  detectLanguage,
  transcribeAudio,
  synthesizeSpeech,
  translateAudio,
  getCapabilities,
};

function callContext(metadata: Metadata): CallContext {
  const ids = metadata
    .get(REDIRECT_HEADER)
    .flatMap((value) => String(value).split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '');
  return { redirectIds: ids };
}

function implementation(deps: ServiceDeps): UntypedServiceImplementation {
  const impl: UntypedServiceImplementation = {};
  for (const method of TranslateService.methods) {
    const handler = HANDLERS[method.localName];
    if (!handler) throw new Error(`no handler for ${method.name}`);
    const output: DescMessage = method.output;
    impl[method.localName] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      handler(deps, call.request as never, callContext(call.metadata)).then(
        (result) => callback(null, create(output, result as MessageInitShape<DescMessage>)),
        (err: unknown) => {
          const status = toStatus(err);
          if (!(err instanceof Error && err.name === 'ServiceError')) {
            process.stderr.write(`error: ${method.name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
          }
          callback(status);
        },
      );
    };
  }
  return impl;
}

/** Reflection reads file descriptors from a proto-loader package definition; the generated code has
 * the same descriptor, so it is handed over in that shape. */
function reflectionPackage(): PackageDefinition {
  const bytes = Buffer.from(toBinary(FileDescriptorProtoSchema, file_vendor_translate_v1_translate.proto));
  return { [TranslateService.typeName]: { fileDescriptorProtos: [bytes] } } as unknown as PackageDefinition;
}

export function createGrpcServer(deps: ServiceDeps): { server: Server; health: HealthImplementation } {
  const server = new Server({ 'grpc.max_receive_message_length': MAX_RECEIVE_BYTES });
  server.addService(serviceDefinition(TranslateService), implementation(deps));
  new ReflectionService(reflectionPackage()).addToServer(server);
  const health = new HealthImplementation({ '': 'NOT_SERVING', [TranslateService.typeName]: 'NOT_SERVING' });
  health.addToServer(server);
  return { server, health };
}

export function bind(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

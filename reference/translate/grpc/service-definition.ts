// grpc-js needs a ServiceDefinition: path, serializers and deserializers per method. It is derived from
// the generated descriptor (proto/gen), so the wire schema has one source.
import type { ServiceDefinition } from '@grpc/grpc-js';
import { type DescMessage, type DescService, fromBinary, toBinary } from '@bufbuild/protobuf';

export function serviceDefinition(service: DescService): ServiceDefinition {
  const definition: Record<string, ServiceDefinition[string]> = {};
  for (const method of service.methods) {
    const input: DescMessage = method.input;
    const output: DescMessage = method.output;
    definition[method.localName] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: (message) => Buffer.from(toBinary(input, message)),
      requestDeserialize: (bytes: Buffer) => fromBinary(input, bytes),
      responseSerialize: (message) => Buffer.from(toBinary(output, message)),
      responseDeserialize: (bytes: Buffer) => fromBinary(output, bytes),
      originalName: method.name,
    };
  }
  return definition;
}

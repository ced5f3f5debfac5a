// A client of another instance (used by the redirect adapter): unary calls with metadata, errors as
// the core's ServiceError.
import { credentials, Metadata, makeGenericClientConstructor, type Client, type ServiceError as GrpcError } from '@grpc/grpc-js';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { fromGrpcStatus } from './status-map.ts';
import { serviceDefinition } from './service-definition.ts';

const TranslateClient = makeGenericClientConstructor(serviceDefinition(TranslateService), 'TranslateService');

type UnaryMethod = (request: unknown, metadata: Metadata, options: { deadline: Date }, callback: (err: GrpcError | null, response: unknown) => void) => void;

export class TranslateServiceClient {
  readonly address: string;
  readonly #client: Client;

  constructor(address: string) {
    this.address = address;
    this.#client = new TranslateClient(address, credentials.createInsecure());
  }

  call<I extends DescMessage, O extends DescMessage>(
    method: { name: string; localName: string; input: I; output: O },
    request: MessageShape<I>,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<MessageShape<O>> {
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
    const fn = (this.#client as unknown as Record<string, UnaryMethod>)[method.localName]!.bind(this.#client);
    return new Promise((resolve, reject) => {
      fn(request, metadata, { deadline: new Date(Date.now() + timeoutMs) }, (err, response) => {
        if (err) reject(fromGrpcStatus(err.code, `${this.address}: ${err.details || err.message}`));
        else resolve(response as MessageShape<O>);
      });
    });
  }

  close(): void {
    this.#client.close();
  }
}


// The tool server's client of the translation service: plaintext, connected lazily, unary calls with no
// deadline that an AbortSignal cancels; a failure rejects with a ToolError named by its gRPC status.
import { type Client, type ClientUnaryCall, connectivityState, credentials, Metadata, makeGenericClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { serviceDefinition } from '../translate/grpc/service-definition.ts';
import { fromGrpcError } from './tool-error.ts';

const TranslateClient = makeGenericClientConstructor(serviceDefinition(TranslateService), 'TranslateService');

// A channel of its own (not grpc-js's process-wide subchannel pool), so that replacing it forgets the
// failed connection and its back-off.
const CHANNEL_OPTIONS = { 'grpc.use_local_subchannel_pool': 1 };

type UnaryMethod = (request: unknown, metadata: Metadata, options: object, callback: (err: ServiceError | null, response: unknown) => void) => ClientUnaryCall;

export class TranslateGrpcClient {
  readonly address: string;
  #client: Client;

  /** `address`: a grpc-js target (`host:port`, `dns:///…`, `unix:///…`); throws when it cannot be parsed. */
  constructor(address: string) {
    this.address = address;
    this.#client = new TranslateClient(address, credentials.createInsecure(), CHANNEL_OPTIONS);
  }

  call<I extends DescMessage, O extends DescMessage>(method: { localName: string; input: I; output: O }, request: MessageShape<I>, signal?: AbortSignal): Promise<MessageShape<O>> {
    const client = this.#client;
    const fn = (client as unknown as Record<string, UnaryMethod>)[method.localName]!;
    return new Promise((resolve, reject) => {
      let call: ClientUnaryCall | undefined;
      const cancel = (): void => call?.cancel();
      call = fn.call(client, request, new Metadata(), {}, (err, response) => {
        signal?.removeEventListener('abort', cancel);
        if (err) {
          if (err.code === status.UNAVAILABLE) this.#reconnectAfterFailure(client);
          reject(fromGrpcError(err, this.address));
        } else resolve(response as MessageShape<O>);
      });
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  /**
   * grpc-js waits out a growing back-off (up to 120 s) before it tries a failed address again, and fails
   * every call meanwhile. A fresh channel lets the next tool call try at once, so the tools work as soon
   * as the service is up. Only a channel in TRANSIENT_FAILURE is replaced: it carries no call.
   */
  #reconnectAfterFailure(failed: Client): void {
    if (this.#client !== failed || failed.getChannel().getConnectivityState(false) !== connectivityState.TRANSIENT_FAILURE) return;
    this.#client = new TranslateClient(this.address, credentials.createInsecure(), CHANNEL_OPTIONS);
    failed.close();
  }

  close(): void {
    this.#client.close();
  }
}

// The gateway's gRPC side: one plaintext channel to TRANSLATE_GRPC_URL (connected lazily), unary calls with
// an optional deadline, cancelled when the HTTP client goes away; failures as GatewayError, the service's status
// message unchanged. A failure to reach the service at all (UNAVAILABLE while the channel is not connected) gets a
// message of its own: grpc-js's names the service's address and the socket error, which are for the gateway's log,
// not for its clients.
import type { DescMessage, DescMethodUnary, MessageShape } from '@bufbuild/protobuf';
import { type Client, type ClientUnaryCall, connectivityState, credentials, Metadata, makeGenericClientConstructor, type ServiceError, status } from '@grpc/grpc-js';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { serviceDefinition } from '../translate/grpc/service-definition.ts';
import { GatewayError } from './gateway-error.ts';
import { knownCode } from './status-map.ts';

export const UNREACHABLE_MESSAGE = 'the translation service cannot be reached';

const TranslateClient = makeGenericClientConstructor(serviceDefinition(TranslateService), 'TranslateService');

/** Above the body limit, so 50 MB of audio (and the speech that comes back) fits a message either way. */
const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;

const CHANNEL_OPTIONS = {
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  // grpc-js backs off up to 120 s between reconnections; a short cap lets the gateway recover within
  // seconds once the service is back (catalog translate-web/errors/service-unavailable).
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

type UnaryMethod = (
  request: unknown,
  metadata: Metadata,
  options: { deadline: number },
  callback: (err: ServiceError | null, response: unknown) => void,
) => ClientUnaryCall;

export interface CallOptions {
  /** Undefined: no deadline. */
  timeoutMs: number | undefined;
  /** Aborted when the HTTP client disconnects: the call is cancelled. */
  signal: AbortSignal;
}

export class GrpcForwarder {
  readonly target: string;
  readonly #client: Client;

  /** Throws when grpc-js cannot parse `target`. */
  constructor(target: string) {
    this.target = target;
    this.#client = new TranslateClient(target, credentials.createInsecure(), CHANNEL_OPTIONS);
  }

  call<I extends DescMessage, O extends DescMessage>(method: DescMethodUnary<I, O>, request: MessageShape<I>, options: CallOptions): Promise<MessageShape<O>> {
    const fn = (this.#client as unknown as Record<string, UnaryMethod>)[method.localName]!;
    const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + options.timeoutMs;
    return new Promise((resolve, reject) => {
      const call = fn.call(this.#client, request, new Metadata(), { deadline }, (err, response) => {
        options.signal.removeEventListener('abort', cancel);
        if (err) reject(this.#failure(err));
        else resolve(response as MessageShape<O>);
      });
      const cancel = (): void => call.cancel();
      if (options.signal.aborted) cancel();
      else options.signal.addEventListener('abort', cancel, { once: true });
    });
  }

  #failure(err: ServiceError): GatewayError {
    const unreachable = err.code === status.UNAVAILABLE && this.#client.getChannel().getConnectivityState(false) !== connectivityState.READY;
    if (!unreachable) return new GatewayError(knownCode(err.code), err.details, { cause: err });
    process.stderr.write(`translate-web: the translation service at ${this.target} cannot be reached: ${err.details}\n`);
    return new GatewayError(status.UNAVAILABLE, UNREACHABLE_MESSAGE, { cause: err });
  }

  close(): void {
    this.#client.close();
  }
}

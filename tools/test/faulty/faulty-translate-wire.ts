// Messages on the faulty translation front's wire: the front relays raw bytes and decodes them only to
// alter them, and asks the reference behind it for the answers some faults substitute.
import { create, type DescMessage, fromBinary, toBinary } from '@bufbuild/protobuf';
import { type Client, Metadata } from '@grpc/grpc-js';
import { TranslateService } from '../../../proto/gen/vendor/translate/v1/translate_pb.ts';

export type Fields = Record<string, unknown>;

export const identity = (bytes: Buffer): Buffer => bytes;

export function decode(schema: DescMessage, bytes: Buffer): Fields {
  return fromBinary(schema, bytes) as unknown as Fields;
}

export function encode(schema: DescMessage, message: Fields): Buffer {
  return Buffer.from(toBinary(schema, message as never));
}

/** A unary call of the reference's TranslateService; undefined when it fails. */
export function callReference(client: Client, method: { name: string; input: DescMessage; output: DescMessage }, fields: Fields): Promise<Fields | undefined> {
  const body = Buffer.from(toBinary(method.input, create(method.input, fields as never)));
  return new Promise((resolve) => {
    client.makeUnaryRequest(`/${TranslateService.typeName}/${method.name}`, identity, identity, body, new Metadata(), {}, (err, response) => {
      resolve(err || !response ? undefined : decode(method.output, response));
    });
  });
}

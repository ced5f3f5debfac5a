// Reads a JSON request body (catalog translate-web/bodies/invalid-request): application/json only (415),
// at most `limit` bytes (413, judged from Content-Length before reading when it is given), UTF-8, JSON of a
// bounded shape (checked before parsing), JSON.
import type { IncomingMessage } from 'node:http';
import { status } from '@grpc/grpc-js';
import { GatewayError } from './gateway-error.ts';
import { jsonShapeProblem } from '../shared/json-shape.ts';
import { readBoundedBody } from '../shared/read-bounded-body.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function checkMediaType(header: string | undefined): void {
  const [type, ...params] = (header ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = params.find((param) => param.startsWith('charset='))?.slice(8).replace(/^"|"$/g, '');
  if (type !== 'application/json' || (charset !== undefined && charset !== 'utf-8')) {
    throw new GatewayError(status.INVALID_ARGUMENT, `the body must be application/json (UTF-8), got ${header === undefined ? 'no Content-Type' : `"${header}"`}`, { httpStatus: 415 });
  }
}

/** A request is one object of a few scalar fields: this is far beyond any, and far below what costs memory. */
const BODY_SHAPE = { maxValues: 1_000, maxDepth: 32 };

const tooLarge = (limit: number) => new GatewayError(status.RESOURCE_EXHAUSTED, `the body is larger than ${limit} bytes`);

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  checkMediaType(req.headers['content-type']);
  if (Number(req.headers['content-length']) > limit) throw tooLarge(limit);
  const bytes = await readBoundedBody(req, limit, () => tooLarge(limit));
  // The shape first: it refuses a hostile body without decoding it.
  const shape = jsonShapeProblem(bytes, BODY_SHAPE);
  if (shape !== null) throw new GatewayError(status.INVALID_ARGUMENT, `the body is not a request: ${shape} (a request is one object of a few fields)`);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch (err) {
    throw new GatewayError(status.INVALID_ARGUMENT, 'the body is not valid UTF-8', { cause: err });
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new GatewayError(status.INVALID_ARGUMENT, `the body is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

// Reads the JSON object body of an admin call (catalog gateway/admin/json-request-bodies,
// invalid-json-body-400, wrong-content-type-415): at most `limit` bytes (413), a present Content-Type other
// than application/json refused (415), a missing one read as JSON, and anything but a JSON object 400.
import type { IncomingMessage } from 'node:http';
import { AdminError, badRequest } from './admin-error.ts';
import { readBoundedBody } from '../../shared/read-bounded-body.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const tooLarge = (limit: number) => new AdminError(413, `the body is larger than ${limit} bytes`);

function isJsonType(header: string): boolean {
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export async function readJsonObject(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (Number(req.headers['content-length']) > limit) throw tooLarge(limit);
  const bytes = await readBoundedBody(req, limit, () => tooLarge(limit));
  const type = req.headers['content-type'];
  if (bytes.length > 0 && type !== undefined && !isJsonType(type)) {
    throw new AdminError(415, `the body must be application/json, got "${type}"`);
  }
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(bytes));
  } catch {
    throw badRequest(bytes.length === 0 ? 'the body must be a JSON object; it is empty' : 'the body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('the body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

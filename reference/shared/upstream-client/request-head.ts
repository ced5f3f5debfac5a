// The request line and headers of one upstream request, serialised once as a string and written as latin1:
// node:http hands over header values and the request target one character per byte (latin1), so the bytes
// a client sent reach the upstream unchanged. The caller's header list is a flat name/value list (node:http's
// rawHeaders form); a value holding CR, LF or NUL would split the message and is refused.
import { UpstreamError } from './upstream-error.ts';

const FORBIDDEN = /[\r\n\0]/;

/**
 * The head to write, and whether a body needs chunked framing (a body without content-length). A Host
 * header is added (the origin's) when the list has none.
 */
export function requestHead(method: string, path: string, headers: readonly string[], host: string, hasBody: boolean): { head: string; chunked: boolean } {
  let head = `${method} ${path} HTTP/1.1\r\n`;
  let hasHost = false;
  let hasLength = false;
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (FORBIDDEN.test(value) || FORBIDDEN.test(name)) throw new UpstreamError('invalid-request', `header ${JSON.stringify(name)} holds a CR, LF or NUL`);
    if (name.length === 4 && name.toLowerCase() === 'host') hasHost = true;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') hasLength = true;
    head += `${name}: ${value}\r\n`;
  }
  if (!hasHost) head += `host: ${host}\r\n`;
  const chunked = hasBody && !hasLength;
  if (chunked) head += 'transfer-encoding: chunked\r\n';
  return { head: `${head}\r\n`, chunked };
}

/** Seconds of a response's `Keep-Alive: timeout=N` hint, or undefined. */
export function keepAliveHint(headers: readonly string[]): number | undefined {
  for (let i = 0; i < headers.length; i += 2) {
    const name = headers[i]!;
    if (name.length !== 10 || name.toLowerCase() !== 'keep-alive') continue;
    const match = /(?:^|[,\s])timeout\s*=\s*(\d+)/i.exec(headers[i + 1]!);
    return match === null ? undefined : Number(match[1]);
  }
  return undefined;
}

// The HTTP/1 response parser of the upstream client, chosen once at load time. The fast path is Node's own
// parser (llhttp, what node:http runs on every message): node:http has no public name for it, but its
// internal module `_http_common` has exported it, unchanged in shape, through Node 20, 22 and 24. Should a
// runtime no longer expose it, a parser in plain JavaScript with the same interface and callbacks takes its
// place (js-response-parser.ts); the upstream client's tests run on both. UPSTREAM_HTTP_PARSER=js in the
// environment forces the fallback for a whole process (to run a conformance suite on it).
import { createRequire } from 'node:module';
import { JsResponseParser } from './js-response-parser.ts';

export interface ResponseParser {
  /** type: RESPONSE; resource: the async-hooks resource; maxHeaderSize in bytes; lenient flags. */
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  /** Bytes parsed, or the parse error (its `code` is llhttp's, e.g. HPE_INVALID_CONSTANT). */
  execute(data: Buffer): number | Error;
  /** The end of input: completes a message that runs until the connection closes. */
  finish(): number | Error | undefined;
  /** Frees the parser; never from inside one of its own callbacks. */
  close(): void;
  /** The native parser only: reads from a stream handle directly (kOnExecute reports each read). */
  consume?(handle: object): void;
  unconsume?(): void;
  [callback: number]: unknown;
}

export interface ResponseParserClass {
  new (): ResponseParser;
  RESPONSE: number;
  kOnMessageBegin: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kOnExecute: number;
}

const loadNodeInternal = (): unknown => createRequire(import.meta.url)('_http_common');

/** Node's own parser when `load` yields it in the expected shape, otherwise the plain-JavaScript one. */
export function chooseParser(load: () => unknown = loadNodeInternal): ResponseParserClass {
  let native: unknown;
  try {
    native = (load() as { HTTPParser?: unknown } | undefined)?.HTTPParser;
  } catch {
    return JsResponseParser;
  }
  if (typeof native !== 'function') return JsResponseParser;
  const statics = native as unknown as Record<string, unknown>;
  const prototype = native.prototype as Record<string, unknown> | undefined;
  const shaped =
    typeof prototype?.execute === 'function' &&
    typeof prototype.consume === 'function' &&
    ['RESPONSE', 'kOnMessageBegin', 'kOnHeaders', 'kOnHeadersComplete', 'kOnBody', 'kOnMessageComplete', 'kOnExecute'].every((key) => typeof statics[key] === 'number');
  return shaped ? (native as ResponseParserClass) : JsResponseParser;
}

/** The parser chosen for this process. */
export const HTTPParser: ResponseParserClass = process.env.UPSTREAM_HTTP_PARSER === 'js' ? JsResponseParser : chooseParser();

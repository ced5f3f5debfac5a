// Node's own HTTP/1 parser (llhttp, the parser node:http runs on every message). node:http has no public
// name for it; its internal module `_http_common` has exported it, unchanged in shape, through every Node
// release this project supports. Only the response side is used here.
import { createRequire } from 'node:module';

export interface NativeParser {
  /** type: HTTPParser.RESPONSE; resource: the async-hooks resource; maxHeaderSize in bytes; lenient flags. */
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  /** Bytes parsed, or the parse error (its `code` is llhttp's, e.g. HPE_INVALID_CONSTANT). */
  execute(data: Buffer): number | Error;
  /** The end of input: completes a message that runs until the connection closes. */
  finish(): number | Error | undefined;
  /** Frees the native parser; never from inside one of its own callbacks. */
  close(): void;
  /** Reads from a stream handle directly (kOnExecute reports each read); unconsume() undoes it. */
  consume(handle: object): void;
  unconsume(): void;
  [callback: number]: unknown;
}

interface ParserClass {
  new (): NativeParser;
  RESPONSE: number;
  kOnMessageBegin: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kOnExecute: number;
}

export const HTTPParser = (createRequire(import.meta.url)('_http_common') as { HTTPParser: ParserClass }).HTTPParser;

// `headers`: fixed response headers set on every response produced after this step. Set with setHeader
// so a later writeHead (redirect, unhandled) or a proxied upstream header of the same name replaces them.
import type { Handler } from '../site/handler.ts';

export function createCustomHeaders(pairs: [string, string][]): Handler {
  return (_req, res, next) => {
    for (const [name, value] of pairs) res.setHeader(name, value);
    next();
  };
}

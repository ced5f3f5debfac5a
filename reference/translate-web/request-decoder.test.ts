// The body decoder on any JSON: for every POST route, any value — and objects made of the message's own
// field names (JSON and proto spellings) with values of any type — decodes to the request message or is
// refused as INVALID_ARGUMENT; no other error reaches the client.
import { status } from '@grpc/grpc-js';
import test from 'ava';
import fc from 'fast-check';
import { GatewayError } from './gateway-error.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { RequestDecoder } from './request-decoder.ts';
import { ROUTES } from './routes.ts';

const inputs = ROUTES.filter((route) => route.method === 'POST').map((route) => route.rpc.input);
const decoder = new RequestDecoder(buildOpenApiDocument(), inputs);

for (const message of inputs) {
  const names = message.fields.flatMap((f) => [f.name, f.jsonName]);
  const fieldValue = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.base64String({ maxLength: 12 }),
    fc.constantFrom('', 'en', 'NaN', '-Infinity', '1e400', '=', '@@'),
    fc.double(),
    fc.integer(),
  );
  const shaped = fc.dictionary(fc.constantFrom(...names), fieldValue, { maxKeys: names.length });

  test(`${message.name}: any JSON body decodes or is INVALID_ARGUMENT`, (t) => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 3 }), shaped), (body) => {
        try {
          decoder.decode(message, body);
        } catch (err) {
          if (err instanceof GatewayError && err.code === status.INVALID_ARGUMENT && err.httpStatus === 400) return;
          throw err;
        }
      }),
      { numRuns: 1000 },
    );
    t.pass();
  });
}

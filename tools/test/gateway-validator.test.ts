// The gateway's generated schema validator is the schema as it is now: a schema edit without `npm run gen`
// fails here, not as a gateway that accepts or refuses configs by an older schema.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { VALIDATOR_FILE, validatorSource } from '../gen/gateway-validator.ts';

test('the generated validator matches gateway-config.schema.json (else run npm run gen)', (t) => {
  t.true(readFileSync(VALIDATOR_FILE, 'utf8') === validatorSource());
});

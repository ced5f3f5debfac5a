// GetCapabilities and the service's shape: the seven unary RPCs at their documented paths.
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { check } from '../harness/check.ts';
import { connect, facts } from './target.ts';

check('translate/capabilities/rpc/empty-request-succeeds', async (t, c) => {
  const client = await connect(c);
  const out = await client.call(TranslateService.method.getCapabilities, {});
  t.is(out.codeName, 'OK', out.message);
});

check('translate/capabilities/available-models/includes-default-model', async (t, c) => {
  const client = await connect(c);
  const out = await client.call(TranslateService.method.getCapabilities, {});
  t.is(out.codeName, 'OK', out.message);
  t.true(out.response!.availableModels.includes(facts.defaultModel), `available_models: ${out.response?.availableModels}`);
});

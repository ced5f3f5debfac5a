// What every RPC handler works with, built once at start-up.
import type { ServiceConfig } from '../config/normalize-config.ts';
import type { Detector } from '../detect/detector.ts';
import type { ModelRegistry } from '../models/model-registry.ts';
import type { SpeechEngines } from '../speech/speech-engines.ts';

export interface ServiceDeps {
  config: ServiceConfig;
  detector: Detector;
  models: ModelRegistry;
  speech: SpeechEngines;
}

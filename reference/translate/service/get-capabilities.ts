// GetCapabilities: what this server is configured to offer, in configuration order.
import type { ServiceDeps } from './service-deps.ts';

export async function getCapabilities({ config }: ServiceDeps) {
  return {
    availableVoices: config.voices,
    availableModels: config.allowedModels,
    sttAvailable: config.sttConfigured,
    ttsAvailable: config.voices.length > 0,
  };
}

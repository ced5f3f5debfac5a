// The configuration used when no file is given: the deterministic built-in model (default) and Apertium
// with every pair installed; no AutoDetect key, so the heuristic detector; no speech.
export const EMBEDDED_DEFAULT = {
  Translation: {
    Models: {
      pseudo: { adapter: 'pseudo' },
      apertium: { adapter: 'apertium' },
    },
    DefaultModel: 'pseudo',
  },
  AllowedModels: ['pseudo', 'apertium'],
  ModelTtlMinutes: 10,
};

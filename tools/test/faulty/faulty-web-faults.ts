// The faults the faulty web gateway can inject (FAULTS=a,b,...), each breaking one documented rule (or, for
// `unavailable-as-500`, one choice the documents leave open).
export const WEB_FAULTS = {
  /** The gateway listens on 8080 whatever PORT says. */
  'port-ignored': 'PORT ignored (always 8080)',
  /** The gateway calls localhost:5000 whatever TRANSLATE_GRPC_URL says. */
  'grpc-url-ignored': 'TRANSLATE_GRPC_URL ignored (always localhost:5000)',
  /** GET /api/capabilities answers a fixed list without calling the service. */
  'capabilities-without-call': 'capabilities answered from a fixed list',
  /** POST /api/translate answers with the text it was sent. */
  'translate-echo': 'translate echoes the request',
  /** POST /api/transcribe calls TranslateAudio and answers with its transcription. */
  'transcribe-calls-translate-audio': 'transcribe served by TranslateAudio',
  /** POST /api/translate-audio calls TranslateAudio twice. */
  'translate-audio-twice': 'translate-audio calls the service twice',
  /** Without PORT the gateway listens on 8080. */
  'port-default-8080': 'default port 8080 instead of 4000',
  /** Without TRANSLATE_GRPC_URL the gateway calls localhost:5000. */
  'grpc-url-default-5000': 'default service address localhost:5000',
  /** POST /api/detect calls TranslateText (to English) and answers with its detected language. */
  'detect-calls-translate': 'detect served by TranslateText',
  /** POST /api/synthesize calls SynthesizeSpeech twice (a retry of its own). */
  'synthesize-twice': 'synthesize calls the service twice',
  /** POST /api/localize answers with the file it was sent instead of the service's answer. */
  'localize-echo': 'localize echoes the request',
  /** The fixed 30 s deadlines are 10 s. */
  'fixed-deadline-10s': 'capabilities, detect, synthesize time out after 10 s',
  /** POST /api/detect takes its deadline from TRANSLATE_TIMEOUT_MS (none when unset). */
  'detect-uses-translate-variable': 'detect deadline from TRANSLATE_TIMEOUT_MS',
  /** POST /api/localize takes its deadline from TRANSLATE_TIMEOUT_MS. */
  'localize-uses-translate-variable': 'localize deadline from TRANSLATE_TIMEOUT_MS',
  /** POST /api/translate-audio has no deadline. */
  'translate-audio-no-deadline': 'translate-audio without deadline',
  /** TRANSCRIBE_TIMEOUT_MS is read as seconds. */
  'transcribe-seconds': 'TRANSCRIBE_TIMEOUT_MS taken as seconds',
  /** A route whose variable is unset gets a 60 s deadline. */
  'unset-60s': 'unset variables mean 60 s',
  /** The page's client retries nothing. */
  'client-no-retry': 'page never retries',
  /** The page's client retries 503 only. */
  'client-retries-503-only': 'page retries 503 only',
  /** An unavailable service is answered 500 (a choice the documents leave open: no must-clause). */
  'unavailable-as-500': 'UNAVAILABLE answered 500',
} as const;
export type WebFault = keyof typeof WEB_FAULTS;

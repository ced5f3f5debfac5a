// translate-server without --config, as a new user first runs it: its embedded default takes the engines
// this machine has (it has them all: the set-up step installs them) — fastText detection, PocketSphinx,
// espeak-ng voices — and starts without those it lacks (a PATH without them; Apertium's modes absent). And
// the web gateway's page in headless Chromium: the speech controls are on when the service offers speech and
// off, with the reason shown, when it does not.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type Browser, chromium } from 'playwright-core';
import { TranslateService } from '../../proto/gen/vendor/translate/v1/translate_pb.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../conformance/harness/environment.ts';
import { GrpcClient } from '../../conformance/harness/grpc-client.ts';
import { PROJECT_ROOT } from '../../conformance/harness/launch.ts';
import { startGateway } from '../../reference/translate-web/test-gateway.ts';

const M = TranslateService.method;
const ENGLISH = 'The weather is lovely today, so we are going for a long walk in the park with the children.';
/** Variables that would give the server a configuration or change it. */
const CONFIG_VARIABLES = /^(TRANSLATE_CONFIG|TRANSLATE_PORT|Translation(__.*)?|AllowedModels|ModelTtlMinutes)$/;

const emptyDir = mkdtempSync(join(tmpdir(), 'translate default ü #'));
test.after.always(() => rmSync(emptyDir, { recursive: true, force: true }));

interface Service {
  address: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** translate-server as a user runs it (its bin, no --config) on a free loopback port; `env` on top. */
async function startService(env: Record<string, string> = {}): Promise<Service> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !CONFIG_VARIABLES.test(name)));
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'reference/translate/bin/translate-server.js'), '--port', '0'], {
    env: { ...base, TRANSLATE_BIND: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  while (!/listening on \S+:\d+\n/.test(stdout)) {
    await Promise.race([once(child.stdout, 'data'), exited]);
    if (child.exitCode !== null) throw new Error(`translate-server exited with ${child.exitCode}: ${stderr}`);
  }
  return {
    address: /listening on (\S+)\n/.exec(stdout)![1]!,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await exited;
    },
  };
}

/** The service without `--config`, a client to it, both ended after `body`. */
async function withService(env: Record<string, string>, body: (client: GrpcClient, service: Service) => Promise<void>): Promise<void> {
  const service = await startService(env);
  const client = new GrpcClient(service.address);
  try {
    await body(client, service);
  } finally {
    client.close();
    await service.stop();
  }
}

test('on this machine: fastText detection with a real probability, PocketSphinx, espeak-ng voices; one line says so', async (t) => {
  await withService({}, async (client, service) => {
    const detected = await client.call(M.detectLanguage, { text: ENGLISH });
    t.is(detected.codeName, 'OK', detected.message);
    t.is(detected.response?.language, 'en');
    t.true((detected.response?.probability ?? 0) > 0.5, `probability ${detected.response?.probability}`);

    const capabilities = await client.call(M.getCapabilities, {});
    t.like(capabilities.response, { sttAvailable: true, ttsAvailable: true });
    t.true(['en', 'es'].every((v) => capabilities.response?.availableVoices.includes(v)), `voices ${capabilities.response?.availableVoices}`);
    t.deepEqual(capabilities.response?.availableModels, ['pseudo', 'apertium']);

    const spoken = await client.call(M.synthesizeSpeech, { text: 'Hola a todos', language: 'es' });
    t.true((spoken.response?.audioData.length ?? 0) > 1000, spoken.message);
    const heard = await client.call(M.transcribeAudio, { audioData: readFileSync(join(PROJECT_ROOT, 'fixtures/translate/speech/counting.wav')) }, { timeoutMs: 120_000 });
    t.true((heard.response?.fullText ?? '').trim() !== '', heard.message);

    t.regex(service.stderr(), /^embedded default configuration: language detection fastText; speech to text PocketSphinx en \(\S+\); voices espeak-ng en, es\b.*; Apertium found$/m);
  });
});

test('a machine without the engines and without Apertium’s pairs: it starts, offers no speech, still detects with fastText', async (t) => {
  // An empty PATH hides every command; no modes folder leaves Apertium no pair.
  const env = { PATH: emptyDir, Translation__Models__apertium__modes: join(emptyDir, 'no modes') };
  await withService(env, async (client, service) => {
    const capabilities = await client.call(M.getCapabilities, {});
    t.like(capabilities.response, { sttAvailable: false, ttsAvailable: false, availableVoices: [] });
    t.deepEqual(capabilities.response?.availableModels, ['pseudo', 'apertium']);
    const detected = await client.call(M.detectLanguage, { text: ENGLISH });
    t.is(detected.response?.language, 'en');
    t.true((detected.response?.probability ?? 0) > 0.5, `probability ${detected.response?.probability}`);
    const pseudo = await client.call(M.translateText, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'es' });
    t.is(pseudo.codeName, 'OK', pseudo.message);
    const apertium = await client.call(M.translateText, { text: 'Hello', sourceLanguage: 'en', targetLanguage: 'es', model: 'apertium' });
    t.is(apertium.codeName, 'INVALID_ARGUMENT', apertium.message);
    const spoken = await client.call(M.synthesizeSpeech, { text: 'Hello', language: 'en' });
    t.is(spoken.codeName, 'FAILED_PRECONDITION', spoken.message);
    t.regex(service.stderr(), /^embedded default configuration: .*speech to text none \(no pocketsphinx_continuous on PATH\); voices none \(no espeak-ng on PATH\); Apertium not found/m);
  });
});

// ---------------------------------------------------------------- the page

const SPEECH_CONTROLS = ['record-start', 'transcribe-submit', 'translate-audio-submit', 'synthesize-submit'];

/** One Chromium for the page's cases (serial: each also starts a service and a gateway). */
let browser: Browser | undefined;
test.after.always(() => browser?.close());

/** The page at a gateway in front of the service started with `env`: which speech controls are disabled and
 * the reasons shown, once the capabilities are in. */
async function speechControls(env: Record<string, string>) {
  const service = await startService(env);
  try {
    const gateway = await startGateway({ TRANSLATE_GRPC_URL: service.address });
    try {
      browser ??= await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
      const page = await browser.newPage();
      await page.goto(gateway.url);
      await page.waitForSelector('[data-testid=capabilities][data-state=done]');
      const disabled = await page.evaluate((ids) => ids.filter((id) => (document.getElementById(id) as HTMLButtonElement).disabled), SPEECH_CONTROLS);
      const reasons = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('.unavailable')].filter((p) => !p.hidden).map((p) => `${p.dataset.testid}: ${p.textContent}`),
      );
      const capabilities = await page.textContent('[data-testid=capabilities]');
      await page.close();
      return { disabled, reasons, capabilities };
    } finally {
      await gateway.stop();
    }
  } finally {
    await service.stop();
  }
}

test.serial('the page: with speech recognition and voices, every speech control is on and no reason is shown', async (t) => {
  const shown = await speechControls({});
  t.regex(shown.capabilities ?? '', /Speech recognition: yes · Voices: en, es/);
  t.deepEqual(shown.disabled, []);
  t.deepEqual(shown.reasons, []);
});

test.serial('the page: without speech recognition or voices, the speech controls are off and say why', async (t) => {
  const shown = await speechControls({ Translation__AudioToText: 'null', Translation__TextToAudio: 'null' });
  t.regex(shown.capabilities ?? '', /Speech recognition: no · Voices: none/);
  t.deepEqual(shown.disabled, SPEECH_CONTROLS);
  t.deepEqual(shown.reasons, [
    'audio-unavailable: Off: the service has no speech recognition (recording, transcription and speech translation need it).',
    'synthesize-unavailable: Off: the service has no voices.',
  ]);
});

test.serial('the page: voices without speech recognition: Speak is on; recording, transcription and speech translation are off', async (t) => {
  const shown = await speechControls({ Translation__AudioToText: 'null' });
  t.deepEqual(shown.disabled, ['record-start', 'transcribe-submit', 'translate-audio-submit']);
  t.deepEqual(shown.reasons, ['audio-unavailable: Off: the service has no speech recognition (recording, transcription and speech translation need it).']);
});

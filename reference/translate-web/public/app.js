// The client page's behaviour: each form calls its gateway route through the retrying client and shows the
// answer or `CODE: message`; forms carry data-state (idle, busy, done, error) and data-attempts for tests.
import { createApiClient } from './api-client.js';
import { base64ToBlob, blobToBase64, toWav } from './wav.js';

const $ = (id) => document.getElementById(id);
const values = (form) => Object.fromEntries(new FormData(form));

/** Runs `task` for `form`: busy state, its error element cleared, then the answer or the error shown. */
async function run(form, errorElement, task) {
  form.dataset.state = 'busy';
  errorElement.textContent = '';
  delete errorElement.dataset.code;
  const api = createApiClient({
    onAttempt: (n) => {
      form.dataset.attempts = String(n);
    },
  });
  try {
    await task(api);
    form.dataset.state = 'done';
  } catch (err) {
    const code = err.code ?? 'CLIENT_ERROR';
    errorElement.dataset.code = code;
    errorElement.textContent = `${code}: ${err.message}`;
    form.dataset.state = 'error';
  }
}

function onSubmit(id, errorId, task) {
  $(id).addEventListener('submit', (event) => {
    event.preventDefault();
    void run(event.currentTarget, $(errorId), (api) => task(api, values(event.currentTarget)));
  });
}

/** Sets an element's blob URL, releasing the one it had. */
function setBlobUrl(element, attribute, blob) {
  if (element.dataset.blobUrl) URL.revokeObjectURL(element.dataset.blobUrl);
  const url = URL.createObjectURL(blob);
  element.dataset.blobUrl = url;
  element.setAttribute(attribute, url);
}

const cueTime = (seconds) => new Date(Math.max(0, seconds) * 1000).toISOString().slice(11, 23);

/** Captions of a player as WebVTT cues `[{start, end, text}]` (speech the page got the text of). */
function setCaptions(trackId, cues) {
  const lines = cues.map(({ start, end, text }) => `${cueTime(start)} --> ${cueTime(end)}\n${text.replaceAll('-->', '→')}\n`);
  setBlobUrl($(trackId), 'src', new Blob([`WEBVTT\n\n${lines.join('\n')}`], { type: 'text/vtt' }));
}

/** One cue for the whole clip (cueTime counts up to 23:59:59). */
const WHOLE = { start: 0, end: 86399 };

const canRecord = Boolean(globalThis.MediaRecorder && navigator.mediaDevices);

/** Turns the speech controls on or off by what the service offers (`null`: unknown, so on: a request then
 * shows the service's own error), each reason shown beside the controls it turns off. */
function offerSpeech(capabilities) {
  const stt = capabilities?.sttAvailable ?? true;
  const voices = capabilities ? capabilities.availableVoices.length > 0 : true;
  $('record-start').disabled = !stt || !canRecord;
  $('transcribe-submit').disabled = !stt;
  $('translate-audio-submit').disabled = !stt || !voices;
  $('synthesize-submit').disabled = !voices;
  const audioReason = !stt
    ? 'Off: the service has no speech recognition (recording, transcription and speech translation need it).'
    : !voices
      ? 'Speech translation is off: the service has no voices.'
      : '';
  for (const [id, reason] of [
    ['audio-unavailable', audioReason],
    ['synthesize-unavailable', voices ? '' : 'Off: the service has no voices.'],
  ]) {
    $(id).textContent = reason;
    $(id).hidden = reason === '';
  }
}

async function loadCapabilities() {
  const target = $('capabilities');
  try {
    const { body } = await createApiClient().get('/api/capabilities');
    for (const select of [$('translate-model'), $('localize-model')]) {
      for (const model of body.availableModels) select.append(new Option(model, model));
    }
    const voices = body.availableVoices.length > 0 ? body.availableVoices.join(', ') : 'none';
    target.textContent = `Models: ${body.availableModels.join(', ')} · Speech recognition: ${body.sttAvailable ? 'yes' : 'no'} · Voices: ${voices}`;
    offerSpeech(body);
    target.dataset.state = 'done';
  } catch (err) {
    target.textContent = 'Capabilities unavailable.';
    offerSpeech(null);
    $('capabilities-error').textContent = `${err.code}: ${err.message}`;
    target.dataset.state = 'error';
  }
}

onSubmit('translate-form', 'translate-error', async (api, form) => {
  const { body } = await api.post('/api/translate', form);
  $('translate-result').textContent = body.translatedText;
  $('translate-detected').textContent = body.detectedLanguage;
  $('translate-model-used').textContent = body.modelUsed;
});

onSubmit('detect-form', 'detect-error', async (api, form) => {
  const { body } = await api.post('/api/detect', form);
  $('detect-language').textContent = body.language;
  $('detect-probability').textContent = body.probability.toFixed(3);
});

onSubmit('localize-form', 'localize-error', async (api, { file, ...form }) => {
  const { body } = await api.post('/api/localize', { ...form, json: await file.text() });
  let pretty = body.json;
  try {
    pretty = JSON.stringify(JSON.parse(body.json), null, 2);
  } catch {
    // Shown as it came.
  }
  $('localize-result').textContent = pretty;
  $('localize-count').textContent = String(body.stringsTranslated);
  localized = { json: body.json, name: `${form.targetLanguage}.json` };
  $('localize-download').hidden = false;
});

let localized = null;

$('localize-download').addEventListener('click', () => {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([localized.json], { type: 'application/json' }));
  link.download = localized.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
});

// ---------------------------------------------------------------- speech input: a WAV file or a recording

let inputAudio = null;

function useInputAudio(blob) {
  inputAudio = blob;
  setBlobUrl($('audio-input-player'), 'src', blob);
  setCaptions('audio-input-captions', []);
}

async function inputAudioBase64() {
  if (!inputAudio) throw Object.assign(new Error('choose a WAV file or record one first'), { code: 'NO_AUDIO' });
  return blobToBase64(inputAudio);
}

$('audio-file').addEventListener('change', (event) => {
  const [file] = event.currentTarget.files;
  if (file) useInputAudio(file);
});

let recorder = null;

$('record-start').addEventListener('click', async () => {
  const status = $('record-status');
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const chunks = [];
    recorder = new MediaRecorder(stream);
    recorder.ondataavailable = (event) => chunks.push(event.data);
    recorder.onstop = async () => {
      for (const track of stream.getTracks()) track.stop();
      try {
        const wav = await toWav(new Blob(chunks, { type: recorder.mimeType }));
        useInputAudio(wav);
        status.textContent = `recorded ${((wav.size - 44) / 32000).toFixed(1)} s (16 kHz WAV)`;
        status.dataset.state = 'done';
      } catch (err) {
        status.textContent = `cannot decode the recording: ${err.message}`;
        status.dataset.state = 'error';
      }
    };
    recorder.start();
    status.textContent = 'recording…';
    status.dataset.state = 'recording';
    $('record-start').disabled = true;
    $('record-stop').disabled = false;
  } catch (err) {
    status.textContent = `cannot record: ${err.message}`;
    status.dataset.state = 'error';
  }
});

$('record-stop').addEventListener('click', () => {
  recorder?.stop();
  $('record-start').disabled = false;
  $('record-stop').disabled = true;
});

if (!canRecord) {
  $('record-status').textContent = 'recording is not supported here; upload a WAV file';
}

onSubmit('transcribe-form', 'transcribe-error', async (api, form) => {
  const { body } = await api.post('/api/transcribe', { ...form, audioData: await inputAudioBase64() });
  $('transcribe-text').textContent = body.fullText;
  $('transcribe-detected').textContent = body.detectedLanguage;
  $('transcribe-segments').replaceChildren(
    ...body.segments.map((segment) => {
      const item = document.createElement('li');
      item.textContent = `${segment.startTime.toFixed(2)}–${segment.endTime.toFixed(2)} s: ${segment.text}`;
      return item;
    }),
  );
  setCaptions('audio-input-captions', body.segments.map((s) => ({ start: s.startTime, end: s.endTime, text: s.text })));
});

onSubmit('translate-audio-form', 'translate-audio-error', async (api, form) => {
  const { body } = await api.post('/api/translate-audio', { ...form, audioData: await inputAudioBase64() });
  $('translate-audio-transcription').textContent = body.transcription;
  $('translate-audio-text').textContent = body.translatedText;
  setBlobUrl($('translate-audio-player'), 'src', base64ToBlob(body.translatedAudio, 'audio/wav'));
  setCaptions('translate-audio-captions', [{ ...WHOLE, text: body.translatedText }]);
});

onSubmit('synthesize-form', 'synthesize-error', async (api, form) => {
  const { body } = await api.post('/api/synthesize', { ...form, speed: Number(form.speed) });
  $('synthesize-sample-rate').textContent = String(body.sampleRate);
  const player = $('synthesize-player');
  setBlobUrl(player, 'src', base64ToBlob(body.audioData, 'audio/wav'));
  setCaptions('synthesize-captions', [{ ...WHOLE, text: form.text }]);
  await player.play().catch(() => {
    // Autoplay may be refused; the controls are there.
  });
});

void loadCapabilities();

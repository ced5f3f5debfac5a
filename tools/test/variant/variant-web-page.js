// The permitted-variant gateway's page client: each card calls its route in the gateway's body design
// (data-design on <html>: proto, snake or rest); 429, 502, 503, 504 and network failures are retried 4 times
// after 300, 600, 1200 and 2400 ms; anything else is shown at once.
const DESIGN = document.documentElement.dataset.design;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const WAITS_MS = [300, 600, 1200, 2400];
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function failure(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    const problem = body.error ?? body;
    return `${problem.code ?? problem.title ?? response.status} — ${problem.message ?? problem.detail ?? text}`;
  } catch {
    return `HTTP ${response.status} — ${text.slice(0, 200)}`;
  }
}

async function call(path, init) {
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      if (attempt < WAITS_MS.length) {
        await wait(WAITS_MS[attempt]);
        continue;
      }
      throw new Error(`network failure — ${err.message}`);
    }
    if (response.ok) return response;
    if (RETRY_STATUSES.has(response.status) && attempt < WAITS_MS.length) {
      await wait(WAITS_MS[attempt]);
      continue;
    }
    throw new Error(await failure(response));
  }
}

const postJson = async (path, body) => (await call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();

async function base64(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const text = btoa(binary);
  return DESIGN === 'snake' ? text.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '') : text;
}

function blobOf(text) {
  const standard = text.replace(/^data:[^,]*,/, '').replaceAll('-', '+').replaceAll('_', '/');
  const binary = atob(standard + '='.repeat((4 - (standard.length % 4)) % 4));
  return new Blob([Uint8Array.from(binary, (ch) => ch.charCodeAt(0))], { type: 'audio/wav' });
}

/** Per action, the request and the reading of the answer in each design. */
const api = {
  async translate(text, target) {
    if (DESIGN === 'rest') return (await postJson('/api/translate', { q: text, target, source: 'auto' })).translation.text;
    if (DESIGN === 'snake') return (await postJson('/api/translate', { text, target_language: target, source_language: 'auto' })).translated_text;
    return (await postJson('/api/translate', { text, targetLanguage: target, sourceLanguage: 'auto' })).translatedText;
  },
  async detect(text) {
    if (DESIGN === 'rest') {
      const [first] = (await (await call('/api/detect', { method: 'POST', body: new URLSearchParams({ q: text }) })).json()).detections;
      return { language: first.language, probability: first.confidence };
    }
    return postJson('/api/detect', { text });
  },
  async localize(file, source, target) {
    if (DESIGN === 'rest') return JSON.stringify((await postJson('/api/localize', { strings: JSON.parse(file), source, target })).strings, null, 2);
    const names = DESIGN === 'snake' ? ['source_language', 'target_language'] : ['sourceLanguage', 'targetLanguage'];
    return (await postJson('/api/localize', { json: file, [names[0]]: source, [names[1]]: target })).json;
  },
  async transcribe(wav, language) {
    if (DESIGN === 'rest') {
      const form = new FormData();
      form.append('audio', wav, 'speech.wav');
      form.append('language', language);
      return (await call('/api/transcribe', { method: 'POST', body: form })).text();
    }
    if (DESIGN === 'snake') return (await postJson('/api/transcribe', { audio_data: await base64(wav), language })).full_text;
    return (await postJson('/api/transcribe', { audioData: await base64(wav), language })).fullText;
  },
  async synthesize(text, language) {
    if (DESIGN === 'rest') return (await call('/api/synthesize', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ text, lang: language }) })).blob();
    const body = await postJson('/api/synthesize', { text, language });
    return blobOf(DESIGN === 'snake' ? body.audio_data : body.audioData);
  },
};

function card(id, action) {
  const root = document.getElementById(id);
  const field = (selector) => root.querySelector(selector);
  field('.go').addEventListener('click', async () => {
    field('.toast').textContent = '';
    if (field('.out')) field('.out').textContent = '';
    try {
      await action(field);
    } catch (err) {
      field('.toast').textContent = `Sorry: ${err.message}`;
    }
  });
}

card('card-translate', async (field) => {
  field('.out').textContent = `Translation: ${await api.translate(field('.source').value, field('select[name=to]').value)}`;
});
card('card-detect', async (field) => {
  const { language, probability } = await api.detect(field('.source').value);
  field('.out').textContent = `Language: ${language} (${Math.round(probability * 100)}%)`;
});
card('card-localize', async (field) => {
  const [file] = field('.file').files;
  if (!file) throw new Error('choose a JSON file first');
  field('.out').textContent = await api.localize(await file.text(), field('input[name=from]').value, field('select[name=to]').value);
});
card('card-transcribe', async (field) => {
  const [file] = field('.file').files;
  if (!file) throw new Error('choose a WAV file first');
  field('.out').textContent = `Heard: ${await api.transcribe(file, field('input[name=lang]').value)}`;
});
card('card-speak', async (field) => {
  const player = field('.player');
  if (player.src) URL.revokeObjectURL(player.src);
  player.src = URL.createObjectURL(await api.synthesize(field('.source').value, field('select[name=lang]').value));
  await player.play().catch(() => {});
});

// The embedded default from what a machine has: the probes pointed at folders of the test's own (a PATH
// holding executables of the engines' names, a PocketSphinx model folder), then loaded and validated as the
// server does.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { embeddedDefault, ESPEAK_VOICES, type Machine } from './embedded-default.ts';
import { loadRawConfig } from './load-config.ts';
import { normalizeConfig } from './normalize-config.ts';

const root = mkdtempSync(join(tmpdir(), 'embedded default fünf #'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

let made = 0;
/** A machine whose PATH holds `commands` (executable unless listed in `notExecutable`) and whose model
 * folder holds the acoustic model when `model` is true. */
function machine({ commands = [] as string[], notExecutable = [] as string[], model = false } = {}): Machine {
  const dir = join(root, `machine ${++made}`);
  const bin = join(dir, 'bin');
  const pocketsphinxModel = join(dir, 'model en-us');
  mkdirSync(bin, { recursive: true });
  for (const name of [...commands, ...notExecutable]) {
    writeFileSync(join(bin, name), '#!/bin/sh\nexit 1\n');
    chmodSync(join(bin, name), commands.includes(name) ? 0o755 : 0o644);
  }
  if (model) mkdirSync(join(pocketsphinxModel, 'en-us'), { recursive: true });
  // An empty entry and a missing folder first: both are passed over.
  return { path: ['', join(dir, 'nowhere'), bin].join(':'), pocketsphinxModel };
}

const ALL = { commands: ['pocketsphinx_continuous', 'espeak-ng', 'apertium'], model: true };

test('with every engine: fastText, PocketSphinx on its model, espeak-ng voices for en and es; pseudo the default', (t) => {
  const where = machine(ALL);
  const { config: raw, found } = embeddedDefault(where);
  const config = normalizeConfig(raw);
  t.deepEqual(config.autoDetect, { type: 'fasttext', path: undefined });
  t.deepEqual(config.stt, { engine: 'pocketsphinx', model: where.pocketsphinxModel, language: 'en' });
  t.true(config.sttConfigured);
  t.deepEqual(config.voices, Object.keys(ESPEAK_VOICES));
  t.deepEqual(config.voiceConfigs.get('en'), { engine: 'espeak-ng', voice: 'en-us', speakers: [] });
  t.deepEqual(config.voiceConfigs.get('es'), { engine: 'espeak-ng', voice: 'es', speakers: [] });
  t.is(config.defaultModel, 'pseudo');
  t.deepEqual(config.allowedModels, ['pseudo', 'apertium']);
  t.is(config.modelTtlMinutes, 10);
  t.is(found, `embedded default configuration: language detection fastText; speech to text PocketSphinx en (${where.pocketsphinxModel}); voices espeak-ng en, es, fr, de; Apertium found`);
});

test('with no engine: fastText still, no speech to text, no voices, the same models; the line says why', (t) => {
  const { config: raw, found } = embeddedDefault(machine());
  const config = normalizeConfig(raw);
  t.deepEqual(config.autoDetect, { type: 'fasttext', path: undefined });
  t.false(config.sttConfigured);
  t.is(config.stt, undefined);
  t.deepEqual(config.voices, []);
  t.deepEqual([...config.models.keys()], ['pseudo', 'apertium']);
  t.is(
    found,
    'embedded default configuration: language detection fastText; speech to text none (no pocketsphinx_continuous on PATH); voices none (no espeak-ng on PATH); Apertium not found (no apertium on PATH)',
  );
});

test('PocketSphinx without its model: no speech to text, voices still', (t) => {
  const where = machine({ commands: ['pocketsphinx_continuous', 'espeak-ng'] });
  const { config: raw, found } = embeddedDefault(where);
  const config = normalizeConfig(raw);
  t.false(config.sttConfigured);
  t.deepEqual(config.voices, Object.keys(ESPEAK_VOICES));
  t.true(found.includes(`speech to text none (no model at ${join(where.pocketsphinxModel, 'en-us')})`), found);
});

test('a file of the engine’s name that is not executable is no engine', (t) => {
  const { config: raw } = embeddedDefault(machine({ notExecutable: ['pocketsphinx_continuous', 'espeak-ng'], model: true }));
  const config = normalizeConfig(raw);
  t.false(config.sttConfigured);
  t.deepEqual(config.voices, []);
});

test('the server’s loading: the embedded default from PATH, its line reported once; overrides still apply', (t) => {
  const { path } = machine({ commands: ['espeak-ng'] });
  const lines: string[] = [];
  const config = normalizeConfig(loadRawConfig(undefined, { PATH: path, Translation__TextToAudio__fr: 'null' }, (line) => lines.push(line)));
  t.deepEqual(config.voices, ['en', 'es', 'de']);
  t.is(lines.length, 1);
  t.regex(lines[0]!, /; voices espeak-ng en, es, fr, de;/);
});

test('a configuration file: no embedded default, nothing reported', (t) => {
  const file = join(root, 'config ü.json');
  writeFileSync(file, JSON.stringify({ Translation: { Models: { only: { adapter: 'pseudo' } } } }));
  const lines: string[] = [];
  const config = normalizeConfig(loadRawConfig(file, { PATH: machine(ALL).path }, (line) => lines.push(line)));
  t.deepEqual([...config.models.keys()], ['only']);
  t.deepEqual(config.autoDetect, { type: 'heuristic' });
  t.deepEqual(lines, []);
});

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';

const run = promisify(execFile);
const MODULE = resolve(import.meta.dirname, 'onnx-runtime.ts');
const VOICE = resolve(import.meta.dirname, '../../../fixtures/translate/models/tiny-piper/tiny-voice.onnx');

/** Every file under dir, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

// ONNX Runtime's telemetry writes a device id under HOME and a debug log and session file in the temporary
// folder (and its upload is skipped only where it sees a CI variable): a process of the reference loading a
// model leaves neither, with an environment that names no CI.
test('a process that runs an ONNX model leaves no telemetry files behind', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'onnx-telemetry-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const temp = join(root, 'tmp');
  for (const dir of [home, temp]) mkdirSync(dir);
  const script = `
    const { onnxRuntime } = await import(${JSON.stringify(MODULE)});
    const ort = await onnxRuntime();
    const session = await ort.InferenceSession.create(${JSON.stringify(VOICE)});
    console.log(session.inputNames.join(','));`;
  const { stdout } = await run(process.execPath, [`--import=${import.meta.resolve('tsx')}`, '--input-type=module', '-e', script], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: home, TMPDIR: temp },
    timeout: 60_000,
  });
  t.true(stdout.includes('input'), stdout);
  // tsx, the test's loader, keeps its compile cache in the temporary folder: not the reference's.
  t.deepEqual(filesUnder(root).filter((file) => !file.startsWith('tmp/tsx-')), []);
});

// ONNX Runtime, loaded by the first model or voice that needs it. onnxruntime-node is an optional dependency
// (a native addon npm leaves out when its install script cannot run), so the service starts without it and
// only the ONNX models and Piper voices answer that it is missing.
//
// Its native library (1.29 on) has telemetry on Linux too: each process leaves a device id and an event store in
// ~/.cache/Microsoft/DeveloperTools/.onnxruntime, a mat-debug-<pid>.log and a .ses file in the temporary folder,
// and tries to upload events. ORT_DISABLE_TELEMETRY=1, set before the library starts, turns all of it off; a
// value the user set stays theirs.
import type ort from 'onnxruntime-node';
import { ServiceError } from './errors.ts';

export type OnnxRuntime = typeof ort;

let loading: Promise<OnnxRuntime> | undefined;

/** The onnxruntime-node module; INTERNAL naming the package and how to add it when it is not installed. */
export function onnxRuntime(): Promise<OnnxRuntime> {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
  loading ??= import('onnxruntime-node').then(
    (module) => {
      // A CommonJS module: Node gives its exports as the default; a loader honouring `__esModule` gives them
      // as the named exports.
      const exports = module as unknown as OnnxRuntime & { default?: OnnxRuntime };
      return exports.default?.InferenceSession ? exports.default : exports;
    },
    (err: unknown) => {
      loading = undefined;
      throw new ServiceError(
        'INTERNAL',
        `ONNX Runtime is not installed (the optional npm package onnxruntime-node; add it with: npm install onnxruntime-node --ignore-scripts): ${(err as Error).message.split('\n')[0]}`,
        { cause: err },
      );
    },
  );
  return loading;
}

// Public surface of the harness for suites over HTTP. The gRPC and stdio clients and the gRPC stub are
// imported from their own modules, so a suite that does not use them does not load their packages.
export { check, type CaseFn, type CaseOptions } from './check.ts';
export type { CaseContext, PropertyOptions } from './case-context.ts';
export type { HttpClient, HttpRequest, HttpResponse } from './http-client.ts';
export type { FileContent, Launched, LaunchSpec } from './launch.ts';
export { freePorts, listenOnFreePort, releasePorts } from './free-ports.ts';
export { CHROMIUM_ARGS, CHROMIUM_PATH } from './environment.ts';
export { launch, PROJECT_ROOT } from './launch.ts';
export { runEnv } from './run-env.ts';

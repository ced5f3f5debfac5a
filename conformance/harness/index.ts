// Public surface of the harness for suites.
export { check, type CaseFn, type CaseOptions } from './check.ts';
export type { CaseContext, PropertyOptions } from './case-context.ts';
export type { HttpClient, HttpRequest, HttpResponse } from './http-client.ts';
export type { FileContent, Launched, LaunchSpec } from './launch.ts';
export { freePorts } from './free-ports.ts';
export { CHROMIUM_ARGS, CHROMIUM_PATH } from './environment.ts';

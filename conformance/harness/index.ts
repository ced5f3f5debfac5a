// Public surface of the harness for suites.
export { check, type CaseFn, type CaseOptions } from './check.ts';
export type { CaseContext, PropertyOptions } from './case-context.ts';
export type { HttpClient, HttpRequest, HttpResponse } from './http-client.ts';
export type { FileContent, Launched, LaunchSpec } from './launch.ts';
export { freePorts } from './free-ports.ts';
export { CHROMIUM_ARGS, CHROMIUM_PATH } from './environment.ts';
export { codeName, GrpcClient, type CallOptions, type GrpcOutcome } from './grpc-client.ts';
export { launch, PROJECT_ROOT } from './launch.ts';
export { runEnv } from './run-env.ts';
export { GrpcStub, type RecordedCall, type StubAnswer, type StubHandler } from './grpc-stub.ts';
export { McpSession, type ToolCallOptions, type ToolOutcome } from './mcp-client.ts';
export { spawnStdio, stdioCommand, type StdioProcess, type StdioSpec } from './stdio-process.ts';

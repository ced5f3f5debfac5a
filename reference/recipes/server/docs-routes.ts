// The recipe manager's OpenAPI 3.1 document at /api/openapi.json and Swagger UI at /api/docs (to be built).
import type { Polka } from 'polka';
import type { ServerContext } from './server-context.ts';

export function mountDocs(_app: Polka, _ctx: ServerContext): void {}

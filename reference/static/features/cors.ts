// CORS through the cors package: `true` gives its defaults (`Access-Control-Allow-Origin: *`, preflight 204).
import type { CorsOptions } from 'cors';
import type { Handler } from '../site/handler.ts';

export async function createCors(options: Record<string, unknown>): Promise<Handler> {
  const { default: cors } = await import('cors');
  return cors(options as CorsOptions) as unknown as Handler;
}

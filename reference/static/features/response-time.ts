// `X-Response-Time` through the response-time package (header written just before the head goes out).
import type { ResponseTimeOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

export async function createResponseTime(options: ResponseTimeOptions): Promise<Handler> {
  const { default: responseTime } = await import('response-time');
  return responseTime(options) as unknown as Handler;
}

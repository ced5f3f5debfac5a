// Response compression through the compression package (gzip/deflate/br by Accept-Encoding).
import type compression from 'compression';
import type { CompressionOptions } from '../config/site-config.ts';
import type { Handler } from '../site/handler.ts';

export async function createCompression(options: CompressionOptions): Promise<Handler> {
  const { default: create } = await import('compression');
  return create(options as compression.CompressionOptions) as unknown as Handler;
}

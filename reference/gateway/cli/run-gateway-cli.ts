// Test support: runs `gateway …` as a user would, a separate process (`node --import tsx main.ts`), to its end.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
export const BIN = fileURLToPath(new URL('../bin/gateway.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `env` replaces the admin variables of this process's environment (GATEWAY_ADMIN, GATEWAY_ADMIN_TOKEN). */
export function gatewayCli(args: string[], options: { env?: Record<string, string>; cwd?: string; bin?: boolean } = {}): Promise<CliRun> {
  const { GATEWAY_ADMIN: _a, GATEWAY_ADMIN_TOKEN: _t, ...inherited } = process.env;
  const argv = options.bin ? [BIN, ...args] : ['--import', 'tsx', MAIN, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd: options.cwd ?? process.cwd(),
      env: { ...inherited, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

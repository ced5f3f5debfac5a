// Runs a speech command-line tool to completion: stdin text in, stdout out; a missing binary is reported as
// such (the caller picks the status).
import { spawn } from 'node:child_process';

export class ToolMissingError extends Error {}

export function runTool(command: string, args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr = (stderr + c).slice(-4000);
    });
    child.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new ToolMissingError(`${command} is not installed`) : err));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

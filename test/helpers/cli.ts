import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { typescriptExecArgv } from './serverProcess.js';

const matchlog = fileURLToPath(new URL('../../src/bin/matchlog.ts', import.meta.url));

/** Runs the real `matchlog` command in a child process. */
export function runMatchlog(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...typescriptExecArgv(), matchlog, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

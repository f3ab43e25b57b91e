#!/usr/bin/env node
import type { CliIo } from '../cli/command.js';
import { runCli } from '../cli/commands.js';

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).toString('utf8');
  },
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    io.err(`matchlog: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);

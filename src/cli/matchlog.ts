#!/usr/bin/env node
import type { CliIo } from './command.js';
import { runCli } from './commands.js';

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
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

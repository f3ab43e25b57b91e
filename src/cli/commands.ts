import { matchlogVersion } from '../platform/packageVersion.js';
import { backupCommand } from './backupCommand.js';
import { auditCommand } from './auditCommand.js';
import { clubCreateCommand } from './clubCreateCommand.js';
import type { CliCommand, CliIo } from './command.js';
import { eraseCommand } from './eraseCommand.js';
import { monitorCommand } from './monitorCommand.js';
import { exportCommand } from './exportCommand.js';
import { openapiCommand } from './openapiCommand.js';
import { projectionsCommand } from './projectionsCommand.js';
import { rebuildCommand } from './rebuildCommand.js';
import { replayCommand } from './replayCommand.js';
import { restoreCommand } from './restoreCommand.js';
import { verifyCommand } from './verifyCommand.js';
import { verifyReceiptCommand } from './verifyReceiptCommand.js';
import { witnessCommand } from './witnessCommand.js';

/** Every subcommand, in the order `matchlog help` lists them. */
const commands: CliCommand[] = [
  replayCommand,
  exportCommand,
  rebuildCommand,
  verifyCommand,
  auditCommand,
  verifyReceiptCommand,
  monitorCommand,
  eraseCommand,
  openapiCommand,
  clubCreateCommand,
  projectionsCommand,
  backupCommand,
  restoreCommand,
  witnessCommand,
];

function help(io: CliIo) {
  io.out('usage: matchlog <command> [options]\n\ncommands:\n');
  for (const command of commands) io.out(`  ${command.name.padEnd(12)} ${command.summary}\n`);
  io.out('\nmatchlog <command> --help shows the options of one command; matchlog --version prints the version.\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === '--version' || name === '-v' || name === 'version') {
    io.out(`matchlog ${matchlogVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    help(io);
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`matchlog: unknown command "${name}"; try matchlog help\n`);
    return 2;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.out(`usage: ${command.usage}\n`);
    return 0;
  }
  return command.run(args, io);
}

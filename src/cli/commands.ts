import { auditCommand } from './auditCommand.js';
import { clubCreateCommand } from './clubCreateCommand.js';
import type { CliCommand, CliIo } from './command.js';
import { eraseCommand } from './eraseCommand.js';
import { exportCommand } from './exportCommand.js';
import { openapiCommand } from './openapiCommand.js';
import { projectionsCommand } from './projectionsCommand.js';
import { rebuildCommand } from './rebuildCommand.js';
import { replayCommand } from './replayCommand.js';
import { verifyCommand } from './verifyCommand.js';

/** Every subcommand, in the order `matchlog help` lists them. */
const commands: CliCommand[] = [replayCommand, exportCommand, rebuildCommand, verifyCommand, auditCommand, eraseCommand, openapiCommand, clubCreateCommand, projectionsCommand];

function help(io: CliIo) {
  io.out('usage: matchlog <command> [options]\n\ncommands:\n');
  for (const command of commands) io.out(`  ${command.name.padEnd(12)} ${command.summary}\n`);
  io.out('\nmatchlog <command> --help shows the options of one command.\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
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

/** One `matchlog` subcommand: a file of its own under src/cli/, listed in matchlog.ts. */
export interface CliCommand {
  name: string;
  /** One line for `matchlog help`. */
  summary: string;
  usage: string;
  /** Resolves to the process exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
  /** All of standard input as text (for secrets that should not be arguments). */
  readStdin?: () => Promise<string>;
}

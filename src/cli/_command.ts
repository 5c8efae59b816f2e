// The command-line plumbing shared by every subcommand. Internal: the CLI is not part of the package's API.
import { parseArgs, ParseArgsConfig } from 'util';

/** where a command writes; process.stdout/stderr in production, string buffers in tests. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** one subcommand of `cdk8s-node-agents`; add a file exporting one of these and a line in main.ts's COMMANDS table. */
export interface Command {
  /** the word after `cdk8s-node-agents`. */
  readonly name: string;
  /** one line for `cdk8s-node-agents --help`. */
  readonly summary: string;
  /** the full text of `cdk8s-node-agents <name> --help`, ending with a newline. */
  readonly help: string;
  /** runs the command; resolves to the exit code. Throw CliError for bad input (exit 2). */
  run(args: string[], io: CliIo): Promise<number>;
}

/** the program name used in messages. */
export const PROGRAM = 'cdk8s-node-agents';

/** exit codes shared by every command. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** bad input (arguments, unreadable or invalid files): printed as one `error: ...` line, exit 2. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** a message fragment that starts lowercase, as every error line does. */
export function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** a usage error of `command`, pointing at its help. */
export function usageError(command: string, what: string): CliError {
  return new CliError(`${command}: ${what}; run '${PROGRAM} ${command} --help' for usage`);
}

/**
 * Node's strict argument parser for one command, with its errors turned into one usage line
 * (`<command>: unknown option --x; run '... <command> --help' for usage`).
 */
export function parseCommandArgs<T extends ParseArgsConfig>(command: string, config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e: any) {
    const message = String(e.message);
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    throw usageError(command, unknown ? `unknown option ${unknown[1]}` : lowerFirst(message.split('\n')[0].replace(/\.$/, '')));
  }
}

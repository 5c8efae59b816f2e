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

/** the longest line the CLI prints on stderr, `error: ` included: a value echoed in a message is shortened to fit. */
export const MAX_LINE = 400;

/** the most `error: ...` lines one run prints; the rest are counted on one more line. */
export const MAX_ERROR_LINES = 20;

/**
 * Bad input (arguments, unreadable or invalid files, objects the API server would reject): printed as one
 * `error: ...` line per problem (one per file or object), exit 2.
 */
export class CliError extends Error {
  /** the problems, one line each, without the `error: ` prefix. */
  public readonly lines: string[];

  constructor(message: string | string[]) {
    const lines = typeof message === 'string' ? [message] : message;
    super(lines.join('\n'));
    this.name = 'CliError';
    this.lines = lines;
  }
}

/**
 * `text` as one printable line of at most `max` characters: control characters (a newline in a file name, the bytes
 * of a binary file) are escaped, and an overlong line keeps its start (where) and its end (the fix), cut in the middle.
 */
export function oneLine(text: string, max: number = MAX_LINE): string {
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    switch (c) {
      case '\n': return '\\n';
      case '\r': return '\\r';
      case '\t': return '\\t';
      default: return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
  if (escaped.length <= max) return escaped;
  const marker = ' [...] ';
  const tail = Math.floor((max - marker.length) / 3);
  const head = max - marker.length - tail;
  return `${cutAt(escaped, head, false)}${marker}${cutAt(escaped, escaped.length - tail, true)}`;
}

/** the text before (or from) `index`, moved so that a surrogate pair is not split. */
function cutAt(text: string, index: number, from: boolean): string {
  const low = (i: number) => i > 0 && i < text.length && /[\udc00-\udfff]/.test(text[i]) && /[\ud800-\udbff]/.test(text[i - 1]);
  const i = low(index) ? (from ? index + 1 : index - 1) : index;
  return from ? text.slice(i) : text.slice(0, i);
}

/** writes the error lines of `e`, each as one `error: ...` line, at most MAX_ERROR_LINES of them. */
export function writeErrors(e: CliError, io: CliIo): void {
  const shown = e.lines.length > MAX_ERROR_LINES ? e.lines.slice(0, MAX_ERROR_LINES - 1) : e.lines;
  for (const line of shown) io.stderr.write(`${oneLine(`error: ${line}`)}\n`);
  if (shown.length < e.lines.length) io.stderr.write(`error: ${e.lines.length - shown.length} more problems not shown; fix the ones above and run again\n`);
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

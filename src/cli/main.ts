// The `cdk8s-node-agents` command. bin/cdk8s-node-agents calls main(); it is not exported from the package index.

import { CliError, CliIo, Command, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, oneLine, PROGRAM, writeErrors } from './_command';
import { admissionPolicyCommand } from './admission-policy';
import { coverageCommand } from './coverage';
import { reviewCommand } from './review';
import { statusCommand } from './status';

/** every subcommand: to add one, write a file exporting a Command and add it here. */
const COMMANDS: Command[] = [
  admissionPolicyCommand,
  coverageCommand,
  reviewCommand,
  statusCommand,
];

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr };

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `usage: ${PROGRAM} <command> [options]`,
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}   ${c.summary}`),
    '',
    `run '${PROGRAM} <command> --help' (or '${PROGRAM} help <command>') for a command's options and output`,
    '',
  ].join('\n');
}

/**
 * Runs the command line.
 *
 * @param argv the arguments after the program name, e.g. `['coverage', '--nodes', 'nodes.yaml', 'app.k8s.yaml']`
 * @param io where to write; defaults to the process's stdout and stderr
 * @returns the exit code: 0 on success, 2 for bad input (one `error: ...` line per problem on stderr), 1 for an unexpected
 *   failure (one line: a bug) or what a command defines (review's --fail-on, status's shortfalls)
 */
export async function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(`error: missing command; run '${PROGRAM} --help' to list commands\n`);
    return EXIT_USAGE;
  }
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    io.stdout.write(usage());
    return EXIT_OK;
  }
  const commandName = name === 'help' ? rest[0] : name;
  const command = COMMANDS.find((c) => c.name === commandName);
  if (!command) {
    io.stderr.write(`${oneLine(`error: unknown command "${commandName}"; run '${PROGRAM} --help' to list commands (${COMMANDS.map((c) => c.name).join(', ')})`)}\n`);
    return EXIT_USAGE;
  }
  if (name === 'help') {
    io.stdout.write(command.help);
    return EXIT_OK;
  }
  try {
    return await command.run(rest, io);
  } catch (e: any) {
    if (e instanceof CliError) {
      writeErrors(e, io);
      return EXIT_USAGE;
    }
    // a bug, not bad input (every input problem is a CliError): one line, without a stack trace
    const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    io.stderr.write(`${oneLine(`error: unexpected failure in ${PROGRAM} ${command.name}: ${what}; this is a bug in ${PROGRAM}, please report it with the command line`)}\n`);
    return EXIT_FAILURE;
  }
}

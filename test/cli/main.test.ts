import { expectOneErrorLine, runCli } from './run-cli';
import { MAX_LINE } from '../../src/cli/_command';
import { main } from '../../src/cli/main';

describe('cdk8s-node-agents', () => {
  test('--help lists the commands and exits 0', async () => {
    const r = await runCli('--help');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: cdk8s-node-agents <command> \[options\]\n/);
    // names padded to the longest, admission-policy
    expect(r.stdout).toMatch(/^ {2}admission-policy {3}write the ValidatingAdmissionPolicy/m);
    expect(r.stdout).toMatch(/^ {2}coverage {11}predict which nodes each DaemonSet runs on/m);
    expect(r.stdout).toContain("run 'cdk8s-node-agents <command> --help'");
  });

  test('-h and help are --help', async () => {
    const help = (await runCli('--help')).stdout;
    expect((await runCli('-h')).stdout).toBe(help);
    expect((await runCli('help')).stdout).toBe(help);
  });

  test('help COMMAND prints that command\'s help', async () => {
    const r = await runCli('help', 'coverage');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe((await runCli('coverage', '--help')).stdout);
  });

  test('no arguments: exit 2 with one line', async () => {
    expectOneErrorLine(await runCli(), 2, /^error: missing command; run 'cdk8s-node-agents --help' to list commands\n$/);
  });

  test('an unknown command: exit 2 naming it and the known commands', async () => {
    expectOneErrorLine(await runCli('deploy'), 2, /^error: unknown command "deploy"; .*\(admission-policy, coverage, review, status\)\n$/);
    expectOneErrorLine(await runCli('help', 'deploy'), 2, /unknown command "deploy"/);
  });

  test('an unexpected failure (a bug, not bad input) exits 1 with one line on stderr, without a stack trace', async () => {
    let stderr = '';
    const code = await main(['coverage', '--help'], {
      stdout: { write: () => { throw new Error('stdout closed'); } },
      stderr: { write: (s: string) => { stderr += s; return true; } },
    });
    expect(code).toBe(1);
    expect(stderr).toBe('error: unexpected failure in cdk8s-node-agents coverage: Error: stdout closed; this is a bug in cdk8s-node-agents, please report it with the command line\n');
  });

  test('an unknown command is echoed on one line, escaped and shortened', async () => {
    const r = await runCli(`deploy\n${'x'.repeat(1000)}`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown command "deploy\\nxxx[^\n]* \[\.\.\.\] [^\n]*\(admission-policy, coverage, review, status\)\n$/);
    expect(r.stderr.length).toBeLessThanOrEqual(MAX_LINE + 1);
  });
});
